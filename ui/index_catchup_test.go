package ui

import "github.com/mcpscope/mcpscope/capture"

// catchUp reads the frames appended since the last call, at most maxScan
// of them; when more arrived, the oldest unread are skipped (or, with lag,
// left for the next call: behind reports them). It reports
// whether anything was read.
func (x *index) catchUp(st *capture.Store) bool {
	x.startPass(st)
	read := false
	for x.next <= x.end {
		n := x.next
		x.readSlice(st, maxScan, 0)
		if x.next == n {
			break
		}
		read = true
	}
	return read
}
