# Reads one git format-patch file; prints one line: "ok DESCRIPTION" or
# "not ok REASON".  Every patch says in the first line of its body whether
# it is a backport or the kit's own:
#
#   commit <12-40 hex> upstream.      a backport of that upstream commit
#   Upstream: <subject> ...; commit id(s) not confirmed.
#                                     a backport whose upstream id the kit
#                                     could not confirm (it says so)
#   Not upstream: <why>               original to the kit
#
# A backport is authored (From:) by the upstream author, who signs off, and
# ends with a "[ kit: ... ]" note of what the 6.12 adaptation changed
# followed by the kit's Signed-off-by, the last one.  A backport whose
# upstream author is not confirmed says "upstream author not confirmed" in
# that note and keeps the kit as author.  An original is the kit's: From:
# is the last Signed-off-by.
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
BEGIN { state = "head" }
state == "head" && /^From: / { from = substr($0, 7); infrom = 1; next }
state == "head" && infrom && /^[ \t]/ { from = from " " trim($0); next }
state == "head" { infrom = 0 }
state == "head" && /^$/ { state = "first"; next }
state == "first" && /^$/ { next }
state == "first" { first = $0; para = $0; state = "para"; next }
state == "para" && /^$/ { state = "body"; next }
state == "para" { para = para " " $0; next }
state == "body" && /^---$/ { state = "diff"; next }
state == "body" && /^Signed-off-by: / {
	sob = substr($0, 16); sobs[sob] = 1; last = sob; lastnote = note; next
}
state == "body" && /^\[ kit: / { note = 1; notetext = $0; innote = 1 }
state == "body" && innote { if ($0 != notetext) notetext = notetext " " trim($0) }
state == "body" && innote && / \]$/ { innote = 0 }
state == "body" && /upstream author not confirmed/ { unconfirmed_author = 1 }
END {
	if (state != "diff") { print "not ok no '---' after the message"; exit }
	if (last == "") { print "not ok no Signed-off-by"; exit }
	if (first ~ /^Not upstream: ./) {
		if (from != last)
			print "not ok original, but From: " from " is not the last Signed-off-by " last
		else
			print "ok original to the kit"
		exit
	}
	if (first ~ /^commit [0-9a-f]+ upstream\.$/) {
		id = first; sub(/^commit /, "", id); sub(/ upstream\.$/, "", id)
		if (length(id) < 12 || length(id) > 40) {
			print "not ok commit id " id " is not 12 to 40 hex digits"; exit
		}
		what = "backport of " id
	} else if (first ~ /^Upstream: ./) {
		if (para !~ /commit ids? not confirmed\./) {
			print "not ok 'Upstream:' without a commit id must say 'commit id not confirmed.'"
			exit
		}
		what = "backport (upstream commit id not confirmed)"
	} else {
		print "not ok the first line of the message says neither 'commit <id> upstream.', 'Upstream: ...' nor 'Not upstream: ...'"
		exit
	}
	if (!lastnote) { print "not ok " what ": no '[ kit: ... ]' note before the kit's Signed-off-by"; exit }
	if (from == last) {
		if (unconfirmed_author)
			print "ok " what " (upstream author not confirmed)"
		else
			print "not ok " what ": From: is the kit (" from "), not the upstream author"
		exit
	}
	if (!(from in sobs)) { print "not ok " what ": upstream author " from " does not sign off"; exit }
	print "ok " what " by " from
}
