package ui

import (
	"sort"
	"strings"
	"unicode"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// filterBudget is how many older frames one step of a filter's backfill
// reads, so that setting a filter on a large capture never stalls the UI.
const filterBudget = 50_000

// termKind says what a filter term tests.
type termKind uint8

const (
	termMethod  termKind = iota // a substring of the method (of the frame or its call)
	termDir                     // ">" client → server, "<" server → client
	termID                      // "#12": the request id
	termError                   // "error": decode errors, error responses but a probe's, failed tool results
	termChannel                 // "control", "stream", "datagram", "stderr"
	termCall                    // the frames of one call, by who asked and its id (filter_calls.go)
	termFinding                 // "finding", "finding:error|warning|note": frames with a finding (findings.go)
	termURI                     // "uri:URI": a message whose params name the resource (filter_uri.go)
)

// term is one word of a filter.
type term struct {
	kind termKind
	text string // method substring (lower case) or id
	dir  capture.Dir
	ch   capture.ChannelKind
	call callRef // the call of a termCall
	sev  findingSeverity
}

// channelWords are the channel names a filter understands.
var channelWords = map[string]capture.ChannelKind{
	"control": capture.Control, "stream": capture.Stream, "datagram": capture.Datagram, "stderr": capture.Stderr,
	"proxy": capture.Proxy, // a proxied session's marks
}

// filter is a parsed filter: a frame matches when every term does.
type filter struct {
	text  string
	terms []term
}

// parseFilter parses the words of a filter: ">" or "<" (direction), "#ID",
// "error", "finding" or "finding:SEVERITY", a channel name, "uri:URI",
// and anything else as a method substring. "uri:" takes the rest of the
// text, spaces included: a URI may hold them.
func parseFilter(s string) filter {
	fl := filter{text: strings.TrimSpace(s)}
	rest := s
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			return fl
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		w := rest[:end]
		if strings.HasPrefix(strings.ToLower(w), uriWord) && len(w) > len(uriWord) {
			uri := strings.TrimRightFunc(rest[len(uriWord):], unicode.IsSpace)
			fl.terms = append(fl.terms, term{kind: termURI, text: uri})
			return fl
		}
		fl.terms = append(fl.terms, wordTerm(w))
		rest = rest[end:]
	}
}

// wordTerm is the term of one word of a filter other than "uri:".
func wordTerm(w string) term {
	lw := strings.ToLower(w)
	ch, isChannel := channelWords[lw]
	switch {
	case w == ">":
		return term{kind: termDir, dir: capture.Out}
	case w == "<":
		return term{kind: termDir, dir: capture.In}
	case len(w) > 1 && w[0] == '#':
		return term{kind: termID, text: w[1:]}
	case lw == "error":
		return term{kind: termError}
	case isFindingWord(lw):
		return findingTerm(lw)
	case isChannel:
		return term{kind: termChannel, ch: ch}
	}
	return term{kind: termMethod, text: lw}
}

// empty reports whether the filter lets every frame through.
func (fl filter) empty() bool { return len(fl.terms) == 0 }

// match reports whether f passes every term, the #ID and call terms taken
// together (any of the ids: a frame has one); x supplies the method of the
// call a response, stream or datagram belongs to.
func (fl filter) match(f *capture.Frame, x *index) bool {
	ids, idMatch := false, false
	for _, t := range fl.terms {
		if t.kind == termID || t.kind == termCall {
			ids, idMatch = true, idMatch || t.match(f, x)
			continue
		}
		if !t.match(f, x) {
			return false
		}
	}
	return !ids || idMatch
}

// match tests one term.
func (t term) match(f *capture.Frame, x *index) bool {
	switch t.kind {
	case termDir:
		return f.Dir == t.dir
	case termChannel:
		return f.Chan.Kind == t.ch
	case termError:
		return failed(f, x)
	case termID:
		return frameID(f) == t.text
	case termCall:
		return t.call.holds(f)
	case termFinding:
		return t.sev.holds(f, x)
	case termURI:
		return namesURI(f, t.text)
	}
	if f.Msg != nil && strings.Contains(strings.ToLower(f.Msg.Method), t.text) {
		return true
	}
	if c, ok := x.lookup(f); ok && strings.Contains(strings.ToLower(c.method), t.text) {
		return true
	}
	if f.Chan.Kind == capture.Proxy {
		return markMatches(f, t.text)
	}
	return f.Chan.Kind == capture.Stderr && strings.Contains(strings.ToLower(string(bodyOf(f))), t.text)
}

// frameID is the request id a frame shows: 7, abc (unquoted), the
// request id of a stream or datagram header, or the id of the request a
// progress notification or a cancellation ($/cancel,
// notifications/cancelled) names; "" when it has none.
func frameID(f *capture.Frame) string {
	switch f.Chan.Kind {
	case capture.Stream, capture.Datagram:
		if _, ok := callOf(f); ok {
			return jsonrpc.IntID(int64(f.Chan.ReqID)).String()
		}
		return ""
	}
	if id, _, ok := notifiedID(f); ok {
		return idText(id)
	}
	if f.Msg == nil || f.Msg.ID == nil || f.Msg.ID.IsNull() {
		return ""
	}
	return idText(*f.Msg.ID)
}

// idText is an id as the id column shows it: 7, or abc unquoted.
func idText(id jsonrpc.ID) string {
	if s, ok := id.Str(); ok {
		return s
	}
	return id.String()
}

// filterView is the list of frames a filter lets through: the matches
// among the frames read before it was set (filled in by backfill steps)
// followed by the matches among the frames read since.
type filterView struct {
	fl     filter
	gen    int      // changes with every new filter, to ignore stale steps
	back   []uint64 // matches with Seq < upTo, in Seq order
	live   []uint64 // matches with Seq >= upTo, in Seq order
	cursor uint64   // next Seq the backfill reads
	upTo   uint64   // the backfill covers Seqs below upTo
	// sent, for the view of a request's frames (w), lets the requests the
	// user sends from now on through with their frames: what the user
	// drives next shows beside the request looked at (filter_calls.go).
	sent bool
}

// newFilterView starts the view of fl; frames from Seq upTo on are offered
// by the index as it reads them.
func newFilterView(fl filter, gen int, first, upTo uint64) *filterView {
	return &filterView{fl: fl, gen: gen, cursor: first, upTo: upTo}
}

// offer takes a frame the index reads.
func (v *filterView) offer(f *capture.Frame, x *index) {
	if f.Seq >= v.upTo {
		v.follow(f, x, true)
	}
	if f.Seq >= v.upTo && v.fl.match(f, x) {
		v.live = append(v.live, f.Seq)
	}
}

// done reports whether the backfill has read every older frame.
func (v *filterView) done() bool { return v.cursor >= v.upTo }

// backfill reads up to filterBudget older frames and reports whether the
// backfill is complete.
func (v *filterView) backfill(st *capture.Store, x *index) bool {
	for budget := filterBudget; budget > 0 && !v.done(); {
		batch := st.Window(v.cursor, min(scanBatch, budget, int(v.upTo-v.cursor)))
		if len(batch) == 0 {
			v.cursor = v.upTo
			break
		}
		for _, f := range batch {
			if f.Seq >= v.upTo {
				break
			}
			v.follow(f, x, false)
			if v.fl.match(f, x) {
				v.back = append(v.back, f.Seq)
			}
		}
		v.cursor = batch[len(batch)-1].Seq + 1
		budget -= len(batch)
	}
	return v.done()
}

// trim forgets matches the store no longer holds.
func (v *filterView) trim(first uint64) {
	v.back = dropBelow(v.back, first)
	v.live = dropBelow(v.live, first)
}

// dropBelow removes the leading Seqs below first.
func dropBelow(seqs []uint64, first uint64) []uint64 {
	i := sort.Search(len(seqs), func(i int) bool { return seqs[i] >= first })
	return seqs[i:]
}

// count, seqAt and find make the view a rowSource.
func (v *filterView) count() int { return len(v.back) + len(v.live) }

func (v *filterView) seqAt(i int) uint64 {
	if i < len(v.back) {
		return v.back[i]
	}
	return v.live[i-len(v.back)]
}

func (v *filterView) find(seq uint64) int {
	return sort.Search(v.count(), func(i int) bool { return v.seqAt(i) >= seq })
}

func (v *filterView) window(st *capture.Store, from, n int) []*capture.Frame {
	out := make([]*capture.Frame, 0, n)
	for i := from; i < min(from+n, v.count()); i++ {
		if f, ok := st.Get(v.seqAt(i)); ok {
			out = append(out, f)
		}
	}
	return out
}
