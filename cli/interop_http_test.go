package cli

import (
	"slices"
	"strings"
	"testing"
)

// The HTTP interoperability tests run the real command in-process against
// the third-party HTTP servers of PEERS.md, each started on a loopback
// port of its own, with --trace, and assert both the answers and what the
// trace shows crossed the wire.

// httpRun runs mcpscope with args and --trace against url.
func httpRun(t *testing.T, url string, args ...string) result {
	t.Helper()
	return mcpscope(t, append(append(args, "--trace"), url)...)
}

// tracedLine returns the first stderr line holding every part, or "".
func tracedLine(r result, parts ...string) string {
	for _, line := range strings.Split(r.stderr, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			return line
		}
	}
	return ""
}

// mustTrace fails unless a trace line holds every part.
func mustTrace(t *testing.T, r result, parts ...string) {
	t.Helper()
	if tracedLine(r, parts...) == "" {
		t.Errorf("no trace line holds %q:\n%s", parts, r.stderr)
	}
}

// peerRunner runs mcpscope with args (command, flags, positional
// arguments) against one peer over one transport.
type peerRunner func(t *testing.T, args ...string) peerRun

// listCheck is a listing a peer must give: the command, the field of its
// JSON that holds the items, and the name of one item.
type listCheck struct{ command, field, want string }

// checkLists runs each listing as a parallel subtest: stdout holds the
// items of every page on the wire, and the item named.
func checkLists(t *testing.T, run peerRunner, lists ...listCheck) {
	t.Helper()
	for _, l := range lists {
		t.Run(l.command, func(t *testing.T) {
			t.Parallel()
			if names := assertAllPages(t, run(t, l.command), l.command+"/list", l.field); !slices.Contains(names, l.want) {
				t.Errorf("%s lacks %q: %v", l.command, l.want, names)
			}
		})
	}
}
