# slowest.awk reads go test -json event files (one per run, named
# RUN.json) and prints each package that took a second or more, slowest
# first, then the ten slowest top-level tests. .ci/run calls it on its
# way out. Plain POSIX awk: CI machines have no jq.

# value returns the string or number that key holds in the JSON event
# line, "" if it has none. Output text is escaped in the line, so a quote
# inside a test's output cannot be taken for a key.
function value(line, key,    rest) {
	if (!match(line, "\"" key "\":")) {
		return ""
	}
	rest = substr(line, RSTART + RLENGTH)
	if (substr(rest, 1, 1) == "\"") {
		rest = substr(rest, 2)
		return substr(rest, 1, index(rest, "\"") - 1)
	}
	match(rest, /^[0-9.eE+-]+/)
	return substr(rest, 1, RLENGTH)
}

# Only a package's or a test's end carries its elapsed time.
/"Action":"(pass|fail)"/ {
	run = FILENAME
	sub(/.*\//, "", run)
	sub(/\.json$/, "", run)
	pkg = value($0, "Package")
	if (module != "" && index(pkg, module "/") == 1) {
		pkg = substr(pkg, length(module) + 2)
	}
	test = value($0, "Test")
	line = sprintf("%8.1fs  %-6s %s", value($0, "Elapsed"), run, pkg)
	if (value($0, "Action") == "fail") {
		line = line "  FAIL"
	}
	if (test == "") {
		if (value($0, "Elapsed") + 0 >= 1) {
			packages[++np] = line
		}
	} else if (index(test, "/") == 0) {
		tests[++nt] = line "  " test
	}
}

# byTime sorts lines that begin with their seconds, slowest first
# (insertion sort: a suite has some hundreds of tests).
function byTime(a, n,    i, j, x) {
	for (i = 2; i <= n; i++) {
		x = a[i]
		for (j = i - 1; j >= 1 && a[j] + 0 < x + 0; j--) {
			a[j + 1] = a[j]
		}
		a[j + 1] = x
	}
}

END {
	byTime(packages, np)
	print "packages of a second or more:"
	for (i = 1; i <= np; i++) {
		print packages[i]
	}
	byTime(tests, nt)
	print "the ten slowest tests:"
	for (i = 1; i <= nt && i <= 10; i++) {
		print tests[i]
	}
}
