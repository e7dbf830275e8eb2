# Reads one git format-patch file; prints one line: "ok DESCRIPTION" or
# "not ok REASON".  The first paragraph of every message says what the
# patch is, in exactly one of three forms:
#
#   commit <id> upstream.
#       a backport of that one upstream commit, stable style.  A
#       "[ kit: ... ]" note says what the 6.12 adaptation changed, right
#       before the kit's Signed-off-by.  From: is the upstream author, who
#       signs off; or the kit, when the note says "upstream author not
#       confirmed".
#   Based on upstream commits <id> ("subject"), <id> ("subject") and ...
#       the kit's reimplementation or squash of several upstream commits
#       (or of one it did not take as it is): From: is the kit, and every
#       Signed-off-by is the kit's.
#   Not upstream: <why>
#       the kit's own: From: is the kit, and every Signed-off-by is the
#       kit's.
#
# Every <id> is 40 hex digits or, where the rest is not known, 12; a
# message with a 12-digit id says so with "not known in full".  The last
# Signed-off-by is the kit's, KIT below, the one identity of its work.
#
# Fixes: an upstream commit that a patch fixes is named in a trailer,
# "Fixes: <12-40 hex> ("subject")".  An earlier patch of this series that a
# patch fixes is named by its subject, since its id changes each time the
# series is applied: a sentence of the body
#   This fixes "subject" [and "subject"], earlier in this series.
# whose subjects must be those of patches before it in kernel-patches/series
# (the file given as -v prev=FILE, one subject a line).
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function bad(msg) { print "not ok " msg; failed = 1; exit }
# ids: each 12 or 40 lower-case hex digits; n = how many; short = any of 12
function check_id(id) {
	if (id !~ /^[0-9a-f]+$/ || (length(id) != 12 && length(id) != 40))
		bad("upstream commit id " id " is neither 40 nor 12 hex digits")
	if (length(id) == 12)
		short = 1
}
BEGIN {
	KIT = "bpfsign developers <bpfsign@example.org>"
	state = "head"
	if (prev != "")
		while ((getline l < prev) > 0)
			earlier[l] = 1
}
state == "head" && /^From: / { from = substr($0, 7); infrom = 1; next }
state == "head" && infrom && /^[ \t]/ { from = from " " trim($0); next }
state == "head" { infrom = 0 }
state == "head" && /^$/ { state = "first"; next }
state == "first" && /^$/ { next }
state == "first" { para = $0; state = "para"; next }
state == "para" && /^$/ { state = "body"; bpara = ""; next }
state == "para" { para = para " " $0; next }
state == "body" && /^---$/ { state = "diff"; fixes_para(bpara); next }
state == "body" && /^$/ { fixes_para(bpara); bpara = ""; next }
state == "body" { bpara = bpara == "" ? $0 : bpara " " $0 }
state == "body" && /^commit [0-9a-f]+ upstream\.$/ { commit_lines++ }
state == "body" && /^(Based on upstream commits|Not upstream:) / { forms++ }
state == "body" && /^Signed-off-by: / {
	sob = substr($0, 16); sobs[sob] = 1; last = sob; lastnote = note
	if (sob != KIT)
		foreign = sob
	next
}
state == "body" && /^Fixes: / {
	if ($0 !~ /^Fixes: [0-9a-f]+ \(".+"\)$/)
		bad("'" $0 "' is not 'Fixes: <id> (\"subject\")'")
	id = $2
	if (length(id) < 12 || length(id) > 40)
		bad("Fixes: id " id " is not 12 to 40 hex digits")
}
state == "body" && /^\[ kit: / { note = 1; notetext = $0; innote = 1 }
state == "body" && innote { if ($0 != notetext) notetext = notetext " " trim($0) }
state == "body" && innote && / \]$/ { innote = 0 }
/not known in full/ { said_short = 1 }
# each "This fixes "S" ..., earlier in this series." names earlier subjects
function fixes_para(p,    rest, s) {
	if (p !~ /^This fixes ".*", earlier in this series\.$/)
		return
	rest = p
	while (match(rest, /"[^"]+"/)) {
		s = substr(rest, RSTART + 1, RLENGTH - 2)
		rest = substr(rest, RSTART + RLENGTH)
		if (!(s in earlier))
			bad("fixes \"" s "\", which is no earlier patch of the series")
		nfixes++
	}
}
END {
	if (failed)
		exit
	if (state != "diff") bad("no '---' after the message")
	if (last == "") bad("no Signed-off-by")
	if (last != KIT) bad("the last Signed-off-by is " last ", not the kit's " KIT)
	if (para ~ /^Not upstream: ./) {
		kind = "original to the kit"
	} else if (para ~ /^commit [0-9a-f]+ upstream\.$/) {
		id = para; sub(/^commit /, "", id); sub(/ upstream\.$/, "", id)
		check_id(id)
		kind = "backport of " id
	} else if (para ~ /^Based on upstream commits /) {
		rest = para; sub(/^Based on upstream commits /, "", rest)
		if (rest !~ /\.$/) bad("the 'Based on upstream commits' paragraph does not end with '.'")
		n = 0
		while (match(rest, /^[0-9a-f]+ \("[^"]+"\)/)) {
			check_id(substr(rest, 1, index(rest, " ") - 1))
			n++
			rest = substr(rest, RLENGTH + 1)
			sub(/^(, and |, | and )/, "", rest)
		}
		if (n == 0 || rest != ".")
			bad("'Based on upstream commits' is not a list of <id> (\"subject\") ending at '.': " rest)
		kind = "based on " n " upstream commit" (n > 1 ? "s" : "")
	} else {
		bad("the first paragraph says neither 'commit <id> upstream.', 'Based on upstream commits <id> (\"subject\")...' nor 'Not upstream: ...'")
	}
	# exactly one of the forms: no second one further down
	if (commit_lines || forms)
		bad(kind ", but the body has another 'commit <id> upstream.', 'Based on upstream commits' or 'Not upstream:' line")
	if (short && !said_short)
		bad(kind ": a 12-digit id, but the message does not say the rest is 'not known in full'")
	if (kind !~ /^backport/) {
		if (from != KIT) bad(kind ", but From: is " from ", not the kit's " KIT)
		if (foreign != "") bad(kind ", but " foreign " signs off: only the kit does")
		print "ok " kind (nfixes ? ", fixes " nfixes " earlier patch" (nfixes > 1 ? "es" : "") : "")
		exit
	}
	if (!lastnote) bad(kind ": no '[ kit: ... ]' note right before the kit's Signed-off-by")
	if (from == KIT) {
		if (notetext !~ /upstream author not confirmed/)
			bad(kind ": From: is the kit, but the note does not say 'upstream author not confirmed'")
		print "ok " kind " (upstream author not confirmed)"
		exit
	}
	if (!(from in sobs)) bad(kind ": upstream author " from " does not sign off")
	print "ok " kind " by " from
}
