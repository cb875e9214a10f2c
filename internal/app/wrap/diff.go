package wrap

import (
	"fmt"
	"strings"
)

// maxDiffLines bounds the lines of each side a diff compares; longer
// texts are summarised instead.
const maxDiffLines = 400

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// UnifiedDiff renders the line differences of a and b as a unified diff
// (--- from, +++ to, @@ hunks, three lines of context), "" when they are
// the same. lineA and lineB are the line numbers of a's and b's first
// lines in their files (1 for whole files).
func UnifiedDiff(from, to string, a, b []byte, lineA, lineB int) string {
	if string(a) == string(b) {
		return ""
	}
	x, y := lines(a), lines(b)
	head := fmt.Sprintf("--- %s\n+++ %s\n", from, to)
	if len(x) > maxDiffLines || len(y) > maxDiffLines {
		return head + fmt.Sprintf("@@ %d lines and %d lines: too long to compare here @@\n", len(x), len(y))
	}
	ops := diffOps(x, y)
	var sb strings.Builder
	sb.WriteString(head)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change within reach.
		start := max(i-diffContext, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*diffContext {
				break
			}
		}
		end = min(end+diffContext+1, len(ops))
		ax, ay := ops[start].ax, ops[start].ay
		var na, nb int
		var body strings.Builder
		for _, o := range ops[start:end] {
			body.WriteString(string(o.kind) + o.text + "\n")
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", ax+lineA, na, ay+lineB, nb)
		sb.WriteString(body.String())
		i = end
	}
	return sb.String()
}

// diffOp is one line of a diff: ' ' kept, '-' only in a, '+' only in b;
// ax and ay are the line's index (or the next line's) in a and b.
type diffOp struct {
	kind   byte
	text   string
	ax, ay int
}

// diffOps aligns x and y on a longest common subsequence of lines.
func diffOps(x, y []string) []diffOp {
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, diffOp{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', x[i], i, j})
			i++
		default:
			ops = append(ops, diffOp{'+', y[j], i, j})
			j++
		}
	}
	return ops
}

// lines splits text into lines without their line endings.
func lines(text []byte) []string {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}
