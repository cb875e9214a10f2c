package ui

// paneID names a pane.
type paneID int

// Panes in focus order.
const (
	paneTraffic paneID = iota
	paneStreams
	paneDatagrams
	paneDetail
	paneHex
	paneStderr
	paneCount
)

// paneNames are the tab labels of the panes.
var paneNames = [paneCount]string{"Traffic", "Streams", "Datagrams", "Detail", "Hex", "Stderr"}

// Sizes from which the panes are shown side by side rather than as tabs.
const (
	splitMinWidth  = 110
	splitMinHeight = 24
	chromeLines    = 3 // tab bar, help or filter line, status bar
	// besideMinWidth is the width from which a screen that drives the
	// server (explorer, composer, wizard, questions) leaves the traffic
	// and detail panes on screen beside it.
	besideMinWidth = 140
	// trafficMaxWidth is the widest the split layout makes its left
	// column.
	trafficMaxWidth = 130
)

// driving says how a screen that drives the server shares the body with
// the panes that show the wire.
type driving int

const (
	noScreen     driving = iota // no screen is open: the panes alone
	screenAlone                 // a narrow terminal with the screen in front
	screenBeside                // the screen on the left, traffic and detail on the right
	wireInFront                 // a narrow terminal flipped to the panes
)

// drivingFor is how a screen shares a w×h terminal: beside the wire when
// it is wide enough, else alone or behind the panes, as flipped.
func drivingFor(open, flipped bool, w, h int) driving {
	switch {
	case !open:
		return noScreen
	case w >= besideMinWidth && h >= splitMinHeight:
		return screenBeside
	case flipped:
		return wireInFront
	}
	return screenAlone
}

// rect is an area of the screen.
type rect struct{ x, y, w, h int }

// contains reports whether the cell (x, y) is inside r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layout says where each visible pane goes: its title line is the first
// line of its area, its body the rest. A hidden pane has an empty area.
type layout struct {
	split  bool
	area   [paneCount]rect
	left   int  // width of the left column in split mode
	screen rect // the open screen's area, title line included; empty when it is not drawn
}

// computeLayout lays the present panes out on a w×h screen. Wide screens
// show the overview split (traffic, streams and datagrams on the left,
// detail and hex on the right; without streams and datagrams traffic takes
// the whole left column); narrow ones, and the stderr tab, show the
// focused pane alone.
//
// With a screen open, d says where it goes: alone in the body, or on the
// left with the traffic pane and the focused pane (detail when traffic is
// focused) stacked on the right.
func computeLayout(w, h int, focus paneID, panes paneSet, d driving) layout {
	bodyH := max(h-chromeLines, 0)
	var l layout
	switch d {
	case screenAlone:
		l.screen = rect{0, 1, w, bodyH}
		return l
	case screenBeside:
		l.besideScreen(w, bodyH, focus)
		return l
	}
	if w < splitMinWidth || h < splitMinHeight || focus == paneStderr {
		l.area[focus] = rect{0, 1, w, bodyH}
		return l
	}
	l.split = true
	// The traffic rows say all they have in trafficMaxWidth columns; on a
	// wider screen the rest goes to the detail and hex panes, whose JSON
	// and dump use it.
	l.left = min(w*11/20, trafficMaxWidth)
	right := w - l.left - 1
	l.stackLeft(bodyH, panes)
	detail := bodyH * 11 / 20
	l.area[paneDetail] = rect{l.left + 1, 1, right, detail}
	l.area[paneHex] = rect{l.left + 1, 1 + detail, right, bodyH - detail}
	return l
}

// besideScreen gives the screen three fifths of the width and stacks the
// traffic pane over the focused one (detail while traffic has the focus)
// in the rest.
func (l *layout) besideScreen(w, bodyH int, focus paneID) {
	sw := w * 3 / 5
	l.screen = rect{0, 1, sw, bodyH}
	x, ww := sw+1, w-sw-1
	below := focus
	if below == paneTraffic {
		below = paneDetail
	}
	traffic := bodyH * 11 / 20
	l.area[paneTraffic] = rect{x, 1, ww, traffic}
	l.area[below] = rect{x, 1 + traffic, ww, bodyH - traffic}
}

// stackLeft gives the left column's bodyH lines to traffic (3/5) and the
// streams and datagrams panes present (the rest, shared); without them
// traffic has it all.
func (l *layout) stackLeft(bodyH int, panes paneSet) {
	below := []paneID{}
	for _, p := range []paneID{paneStreams, paneDatagrams} {
		if panes[p] {
			below = append(below, p)
		}
	}
	traffic := bodyH
	if len(below) > 0 {
		traffic = bodyH * 3 / 5
	}
	l.area[paneTraffic] = rect{0, 1, l.left, traffic}
	y, rest := 1+traffic, bodyH-traffic
	for i, p := range below {
		n := rest / (len(below) - i)
		l.area[p] = rect{0, y, l.left, n}
		y, rest = y+n, rest-n
	}
}

// visible reports whether a pane is on screen.
func (l layout) visible(p paneID) bool { return l.area[p].h > 0 }

// body is the area of a pane below its title line.
func (l layout) body(p paneID) rect {
	a := l.area[p]
	if a.h == 0 {
		return a
	}
	return rect{a.x, a.y + 1, a.w, a.h - 1}
}

// paneAt returns the visible pane at the cell (x, y).
func (l layout) paneAt(x, y int) (paneID, bool) {
	for p := range paneCount {
		if l.area[p].contains(x, y) {
			return p, true
		}
	}
	return 0, false
}
