package explore

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// listState is where the fetching of one list stands.
type listState int

const (
	listIdle         listState = iota // not asked for yet
	listUnadvertised                  // the server does not advertise it; not asked for
	listLoading                       // the request is in flight
	listLoaded                        // answered (err may still say a later page failed)
	listNone                          // the dialect has no such list (none says why); not asked for
)

// now is the clock a list's staleness is judged by; tests set it.
var now = time.Now

// entryList is one filterable list of the explorer.
type entryList struct {
	tab    exploreTab
	items  []entry
	state  listState
	err    error  // why the list (or one of its pages) failed
	none   string // why the dialect has no such list (listNone)
	filter string
	shown  []int // indexes of items matching the filter, best first
	cursor int   // index in shown
	offset int   // first row drawn
	rows   int   // rows drawn last time, for page keys
	// mark, when set, is a mark shown before an item's label ("" for
	// none): a subscribed resource's (subscribe.go).
	mark func(*entry) string
	// hint is the cache hint the list's pages carried (2026-07-28), and
	// fetched when they were fetched, to say when the list goes stale.
	hint    mcp.CacheHint
	fetched time.Time
}

// setItems replaces the items and keeps the filter.
func (l *entryList) setItems(items []entry) {
	l.items = items
	l.setFilter(l.filter)
}

// setFilter shows the items matching text, the best matches first; an
// empty text shows every item in the server's order.
func (l *entryList) setFilter(text string) {
	l.filter = text
	l.shown = l.shown[:0]
	scores := map[int]int{}
	for i := range l.items {
		if score, ok := l.items[i].match(text); ok || text == "" {
			l.shown = append(l.shown, i)
			scores[i] = score
		}
	}
	if text != "" {
		sort.SliceStable(l.shown, func(a, b int) bool { return scores[l.shown[a]] > scores[l.shown[b]] })
	}
	l.cursor, l.offset = 0, 0
}

// selected returns the entry under the cursor.
func (l *entryList) selected() (*entry, bool) {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return nil, false
	}
	return &l.items[l.shown[l.cursor]], true
}

// move moves the cursor.
func (l *entryList) move(v nav.Move) { l.cursor = v.Apply(l.cursor, len(l.shown)) }

// summary is the line above the rows: the state, the count, the filter and
// the error of the list.
func (l *entryList) summary(d mcp.Dialect) string {
	what := strings.ToLower(exploreLists[l.tab].name)
	one := strings.TrimSuffix(what, "s")
	var parts []string
	switch l.state {
	case listIdle:
		parts = append(parts, "not loaded")
	case listUnadvertised:
		parts = append(parts, fmt.Sprintf("the server does not advertise %s; r asks anyway", exploreLists[l.tab].capability))
	case listLoading:
		parts = append(parts, "loading…")
	case listNone:
		parts = append(parts, l.none)
	case listLoaded:
		if l.filter != "" {
			parts = append(parts, fmt.Sprintf("%d of %s %s %q", len(l.shown), plural.Count(len(l.items), one, what), plural.Word(len(l.shown), "matches", "match"), l.filter))
		} else {
			parts = append(parts, plural.Count(len(l.items), one, what))
		}
		if l.hint.Present {
			parts = append(parts, look.CacheHintLine(l.hint, l.fetched, now()))
		}
	}
	if l.err != nil {
		parts = append(parts, exploreLists[l.tab].method+" failed: "+look.ErrorHeadline(l.err, d))
	}
	return strings.Join(parts, " · ")
}

// render draws the rows in w×h: a marker on the selected one, the label,
// the detail and, unless a preview beside the list shows it, the
// description, each cut to its column.
func (l *entryList) render(w, h int, st *look.Styles, previewed bool) []string {
	l.rows = max(h, 1)
	if h <= 0 {
		return nil
	}
	switch {
	case l.cursor < l.offset:
		l.offset = l.cursor
	case l.cursor >= l.offset+h:
		l.offset = l.cursor - h + 1
	}
	l.offset = max(0, min(l.offset, len(l.shown)-h))
	labelW, detailW := 0, 0
	for _, i := range l.shown {
		labelW = max(labelW, look.TextWidth(l.label(&l.items[i])))
		detailW = max(detailW, look.TextWidth(l.items[i].detail()))
	}
	inner := max(w-2, 1)
	if previewed {
		labelW = min(labelW, max(inner*3/5, 12))
		detailW = min(detailW, max(inner-labelW-2, 0))
	} else {
		labelW = min(labelW, max(inner*2/5, 12))
		detailW = min(detailW, max(inner-labelW-2, 0)*3/5)
	}
	out := make([]string, 0, h)
	for r := l.offset; r < len(l.shown) && len(out) < h; r++ {
		e := &l.items[l.shown[r]]
		label, detail := look.Cell(l.label(e), labelW), ""
		if detailW > 0 {
			detail = "  " + look.Cell(e.detail(), detailW)
		}
		desc := e.desc
		if e.bad != "" {
			desc = e.bad
		}
		rest := max(inner-labelW-len(detail), 0)
		descCell := ""
		if rest > 2 && !previewed {
			descCell = "  " + look.Cell(desc, rest-2)
		}
		if r == l.cursor {
			out = append(out, st.Ink.SelFocused.Paint("› "+label+detail+descCell))
			continue
		}
		out = append(out, "  "+label+detailTint(e, st).Paint(detail)+st.Ink.Muted.Paint(descCell))
	}
	return out
}
