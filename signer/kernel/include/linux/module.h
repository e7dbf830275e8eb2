/* SPDX-License-Identifier: GPL-2.0 */
/* user-space build of lib/asn1_decoder.c: no module metadata */
#define MODULE_LICENSE(l)
