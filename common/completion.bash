# SPDX-License-Identifier: GPL-2.0
# bash completion for the kit's tools: bpfsign, gen-loader, bpfsign-policy.
# Installed once per tool, under its name, in bash-completion's
# completions directory.  The commands and the options come from the tool's
# own --help, which its option table generates (common/opts.c): completion
# cannot drift from what the parser takes.

# _bpfsign_kit_usage PROG [CMD]: the usage line of CMD (the default command
# without one), as --help prints it
_bpfsign_kit_usage()
{
	"$@" --help 2>/dev/null | sed -n '1s/^Usage: //p'
}

_bpfsign_kit()
{
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} cmds cmd='' usage opts w i
	local name=${prog##*/}

	# the commands: "Usage: PROG CMD ..." lines of PROG --help
	cmds=$("$prog" --help 2>/dev/null |
		sed -n "s/^Usage: $name \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p")
	for ((i = 1; i < COMP_CWORD; i++)); do
		for w in $cmds; do
			[ "${COMP_WORDS[i]}" = "$w" ] && { cmd=$w; break 2; }
		done
	done
	if [ -z "$cmd" ] && [ "$COMP_CWORD" = 1 ] && [ "${cur#-}" = "$cur" ]; then
		COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		# gen-loader OBJ ...: its default command takes a file first
		[ "$name" = gen-loader ] && COMPREPLY+=($(compgen -f -- "$cur"))
		return
	fi
	usage=$(_bpfsign_kit_usage "$prog" $cmd)
	# an option that takes an argument: "--opt ARG" in the usage line
	case " $usage " in
	*" $prev "[A-Za-z]*|*"|$prev "[A-Za-z]*)
		case $prev in -*)
			COMPREPLY=($(compgen -f -- "$cur"))
			return ;;
		esac ;;
	esac
	if [ "${cur#-}" != "$cur" ]; then
		opts=$(printf '%s\n' "$usage" | grep -o -- '-\{1,2\}[a-z][a-z-]*' | sort -u)
		[ -z "$cmd" ] && [ "$COMP_CWORD" = 1 ] && opts="$opts --help --version"
		COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _bpfsign_kit bpfsign gen-loader bpfsign-policy
