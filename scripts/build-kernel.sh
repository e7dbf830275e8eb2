#!/bin/sh
# make kernel: extract Debian's linux-source-6.12 into build/linux, apply
# kernel-patches/series with zero fuzz, configure the minimal guest from
# qemu/guest.config and build bzImage with ccache.  Re-running it rebuilds
# only what changed; a changed series is re-applied from the pristine base.
set -eu
. "$(dirname "$0")/env.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
series=$top/kernel-patches/series

die() { echo "build-kernel: $*" >&2; exit 1; }

extract() {
	[ -f "$tarball" ] || die "$tarball missing (make deps)"
	echo "  EXTRACT $tarball"
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	# A git tree makes `git am` (exact context, no fuzz) and resetting to
	# the pristine base cheap.
	git -C "$src.tmp" init -q
	git -C "$src.tmp" add -A -f
	git -C "$src.tmp" -c user.name=bpfsign -c user.email=bpfsign@localhost \
		commit -q -m "Debian $(basename "$tarball")"
	git -C "$src.tmp" tag base
	mv "$src.tmp" "$src"
}

series_id() {
	( cd "$top/kernel-patches" && cat series &&
	  grep -v '^#' series | grep . | xargs -r cat ) | sha256sum | cut -d' ' -f1
}

apply_series() {
	# Developers build the tree as they edit it, and export with
	# scripts/export-patches.sh.
	[ -z "${BPFSIGN_DEV:-}" ] || return 0
	want=$(series_id)
	stamp=$src/.git/bpfsign-series
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	   [ "$(git -C "$src" rev-parse HEAD)" = "$(cat "$stamp.head")" ]; then
		return 0
	fi
	if [ -f "$stamp.head" ] && [ -z "${BPFSIGN_RESET:-}" ] &&
	   [ "$(git -C "$src" rev-parse HEAD)" != "$(cat "$stamp.head")" ]; then
		die "$src has commits that are not in kernel-patches/ (export them, or BPFSIGN_RESET=1 to drop them)"
	fi
	git -C "$src" diff --quiet HEAD ||
		[ -n "${BPFSIGN_RESET:-}" ] ||
		die "$src has uncommitted changes (BPFSIGN_RESET=1 drops them)"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" reset -q --hard base
	grep -v '^#' "$series" | grep . | while read -r p; do
		echo "  APPLY   $p"
		git -C "$src" -c user.name=bpfsign -c user.email=bpfsign@localhost \
			am -q --keep-cr --committer-date-is-author-date \
			"$top/kernel-patches/$p" ||
			{ git -C "$src" am --abort; die "patch $p does not apply"; }
	done
	git -C "$src" rev-parse HEAD > "$stamp.head"
	echo "$want" > "$stamp"
}

# check_config: every line of the fragment is in .config (quiet: no messages)
check_config() {
	bad=0
	while read -r line; do
		case "$line" in
		CONFIG_*)
			grep -qxF "$line" "$kout/.config" ||
				{ [ -n "${1:-}" ] || echo "build-kernel: not in .config: $line" >&2; bad=1; } ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$kout/.config" ||
				{ [ -n "${1:-}" ] || echo "build-kernel: set in .config: $opt" >&2; bad=1; } ;;
		esac
	done < "$frag"
	[ $bad = 0 ]
}

# merge_fragments FILE...: one line per option, the last file's line winning
merge_fragments() {
	cat "$@" | awk '
		/^CONFIG_/ { k = $0; sub(/=.*/, "", k) }
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { k = $2 }
		!/^CONFIG_/ && !/^# CONFIG_[A-Za-z0-9_]* is not set$/ { next }
		!(k in line) { order[n++] = k }
		{ line[k] = $0 }
		END { for (i = 0; i < n; i++) print line[order[i]] }'
}

configure() {
	frags=$top/qemu/guest.config
	[ "$flavour" = release ] || frags="$frags $top/qemu/$flavour.config"
	frag=$build/guest-$flavour.config
	# shellcheck disable=SC2086
	merge_fragments $frags |
	sed -e "s|@TRUSTED_KEYS@|$top/keys-example/kernel-trusted.pem|" \
	    -e "s|@REVOKED_KEYS@|$top/keys-example/kernel-revoked.pem|" \
	    -e "s|@BLACKLIST_HASHES@|$top/keys-example/kernel-blacklist-hashes|" \
	    -e "s|@IPE_BOOT_POLICY@|$top/qemu/ipe-boot.policy|" \
		> "$frag.new"
	# A .config that drifted from the fragment (an older tree's Kconfig
	# dropped options from it) is regenerated like a changed fragment.
	if [ -f "$kout/.config" ] && cmp -s "$frag.new" "$frag" && check_config quiet; then
		rm "$frag.new"
	else
		mv "$frag.new" "$frag"
		mkdir -p "$kout"
		echo "  CONFIG  allnoconfig + $(echo "$frags" | sed "s|$top/||g") ($flavour)"
		kmake KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null
	fi
	# Kconfig drops what it cannot satisfy without a word: check every line.
	check_config || die "config fragment not honoured"
}

mkdir -p "$build"
# One kernel build at a time on this machine: both flavours share the tree
# and its series, and two builds, even from two clones, would not fit it.
# The lock lives beside the ccache that every clone shares.
mkdir -p "$CCACHE_DIR"
exec 9>"$CCACHE_DIR/bpfsign-kernel.lock"
flock 9
[ -d "$src/.git" ] || extract
apply_series
configure
# Nothing newer than the image (tree, fragment, keys): skip kbuild's walk of
# the whole tree, which alone takes about 15 s here.
img=$kout/arch/x86/boot/bzImage
if [ -f "$img" ] && [ -L "$kimage" ] &&
   [ -z "$(find "$src" "$frag" "$top/keys-example" -newer "$img" ! -path "$src/.git/*" \
	   -type f -print -quit)" ]; then
	exit 0
fi
echo "  BUILD   bzImage ($(kmake -s kernelrelease), $flavour)"
kmake bzImage
# the debug guest's only module: kmemleak's sample, for BPFSIGN_INJECT=leak
! grep -q '^CONFIG_MODULES=y' "$kout/.config" || kmake modules
touch "$img"
ln -sf "$img" "$kimage"
