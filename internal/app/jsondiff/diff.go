package jsondiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// DefaultMax is how many differences a comparison lists when Options.Max
// is 0; the rest are only counted.
const DefaultMax = 1000

// Kind says how a value differs.
type Kind uint8

// The kinds of difference.
const (
	Changed Kind = iota // the value at the path is another one
	Added               // the path exists in the new value only
	Removed             // the path exists in the old value only
)

// Keyed names arrays whose elements are matched by the value of one of
// their members instead of by position: the tools of a tools/list result
// by name, say. Such an array is compared by position after all when an
// element is not an object with a string Member, or two share a value.
type Keyed struct {
	Array  Pattern // the arrays
	Member string  // the member whose value identifies an element
}

// Options tune a comparison.
type Options struct {
	Ignore []Pattern // paths not compared: what they hold, added or removed, does not count
	Keyed  []Keyed   // arrays matched by a member's value
	Max    int       // the most differences listed (0: DefaultMax)
}

// Difference is one place where the new value differs from the old one.
type Difference struct {
	Kind Kind
	Old  any // the old value (nil when Added)
	New  any // the new value (nil when Removed)
	at   *node
}

// Path returns where the difference is.
func (d Difference) Path() Path { return d.at.path() }

// Report is the outcome of a comparison.
type Report struct {
	Diffs   []Difference // in document order, at most Options.Max
	Omitted int          // differences found past Options.Max
}

// Equal reports whether the values are the same but for ignored paths.
func (r Report) Equal() bool { return len(r.Diffs) == 0 && r.Omitted == 0 }

// node is one path, linked to its parent so that every path of a
// document shares its prefix.
type node struct {
	parent *node
	seg    Segment
	depth  int
}

func (n *node) child(seg Segment) *node {
	if n == nil {
		return &node{seg: seg, depth: 1}
	}
	return &node{parent: n, seg: seg, depth: n.depth + 1}
}

func (n *node) path() Path {
	if n == nil {
		return Path{}
	}
	p := make(Path, n.depth)
	for at := n; at != nil; at = at.parent {
		p[at.depth-1] = at.seg
	}
	return p
}

// side says which of the two values a pair holds.
type side uint8

const (
	both side = iota
	oldOnly
	newOnly
)

// pair is a path still to compare.
type pair struct {
	old, new any
	has      side
	at       *node
	st       *state
}

// comparison is one run of Compare.
type comparison struct {
	m       matcher
	ignores int // m.pats[:ignores] are Options.Ignore, the rest Options.Keyed
	keyed   []Keyed
	max     int
	stack   []pair
	report  Report
}

// Decode decodes one JSON value, numbers kept as written (json.Number),
// for Compare. Nesting deeper than encoding/json accepts (10000 levels) is
// an error.
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a JSON value: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a JSON value: more follows the value")
	}
	return v, nil
}

// Compare compares two values decoded from JSON (by Decode, or by
// encoding/json into any) and reports how new differs from old, object
// members in name order, array elements in order.
func Compare(old, new any, o Options) Report {
	c := &comparison{max: o.Max, keyed: o.Keyed, ignores: len(o.Ignore)}
	if c.max <= 0 {
		c.max = DefaultMax
	}
	c.m.pats = append(c.m.pats, o.Ignore...)
	for _, k := range o.Keyed {
		c.m.pats = append(c.m.pats, k.Array)
	}
	c.stack = append(c.stack, pair{old: old, new: new, st: c.m.start()})
	for len(c.stack) > 0 {
		p := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.visit(p)
	}
	return c.report
}

// visit compares one pair and stacks its children.
func (c *comparison) visit(p pair) {
	if c.m.matched(p.st, 0, c.ignores) >= 0 {
		return
	}
	switch p.has {
	case oldOnly:
		c.add(Difference{Kind: Removed, Old: p.old, at: p.at})
		return
	case newOnly:
		c.add(Difference{Kind: Added, New: p.new, at: p.at})
		return
	}
	switch o := p.old.(type) {
	case map[string]any:
		if n, ok := p.new.(map[string]any); ok {
			c.objects(p, o, n)
			return
		}
	case []any:
		if n, ok := p.new.([]any); ok {
			c.arrays(p, o, n)
			return
		}
	}
	if !scalarEqual(p.old, p.new) {
		c.add(Difference{Kind: Changed, Old: p.old, New: p.new, at: p.at})
	}
}

// add lists a difference, or counts it past the maximum.
func (c *comparison) add(d Difference) {
	if len(c.report.Diffs) < c.max {
		c.report.Diffs = append(c.report.Diffs, d)
		return
	}
	c.report.Omitted++
}

// push stacks a child of p.
func (c *comparison) push(p pair, seg Segment, old, new any, has side) {
	c.stack = append(c.stack, pair{old: old, new: new, has: has, at: p.at.child(seg), st: c.m.next(p.st, seg)})
}

// objects stacks the members of two objects, to be visited in name order.
func (c *comparison) objects(p pair, o, n map[string]any) {
	names := make([]string, 0, max(len(o), len(n)))
	for k := range o {
		names = append(names, k)
	}
	for k := range n {
		if _, ok := o[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for i := len(names) - 1; i >= 0; i-- {
		k := names[i]
		ov, inOld := o[k]
		nv, inNew := n[k]
		c.push(p, Member(k), ov, nv, sides(inOld, inNew))
	}
}

func sides(inOld, inNew bool) side {
	switch {
	case !inNew:
		return oldOnly
	case !inOld:
		return newOnly
	}
	return both
}

// arrays stacks the elements of two arrays: by position, or by key when
// the array is keyed and every element has a key of its own.
func (c *comparison) arrays(p pair, o, n []any) {
	if k := c.m.matched(p.st, c.ignores, len(c.m.pats)); k >= 0 {
		member := c.keyed[k-c.ignores].Member
		ko, okOld := keysOf(o, member)
		kn, okNew := keysOf(n, member)
		if okOld && okNew {
			c.keyedArrays(p, o, n, ko, kn)
			return
		}
	}
	for i := max(len(o), len(n)) - 1; i >= 0; i-- {
		var ov, nv any
		if i < len(o) {
			ov = o[i]
		}
		if i < len(n) {
			nv = n[i]
		}
		c.push(p, Element(i), ov, nv, sides(i < len(o), i < len(n)))
	}
}

// keyedArrays stacks the elements of two keyed arrays, to be visited in
// this order: the old elements in their order (changed or removed), then
// the added ones in theirs.
func (c *comparison) keyedArrays(p pair, o, n []any, ko, kn []string) {
	at := make(map[string]int, len(kn))
	for i, k := range kn {
		at[k] = i
	}
	inOld := make(map[string]bool, len(ko))
	for _, k := range ko {
		inOld[k] = true
	}
	for i := len(kn) - 1; i >= 0; i-- {
		if !inOld[kn[i]] {
			c.push(p, keyedSegment(i, kn[i]), nil, n[i], newOnly)
		}
	}
	for i := len(ko) - 1; i >= 0; i-- {
		if j, ok := at[ko[i]]; ok {
			c.push(p, keyedSegment(j, ko[i]), o[i], n[j], both)
		} else {
			c.push(p, keyedSegment(i, ko[i]), o[i], nil, oldOnly)
		}
	}
}

func keyedSegment(i int, key string) Segment {
	return Segment{Index: i, IsIndex: true, Key: key, HasKey: true}
}

// keysOf returns the value of member in each element of a, or false when
// an element has none or two share one.
func keysOf(a []any, member string) ([]string, bool) {
	keys := make([]string, len(a))
	seen := make(map[string]bool, len(a))
	for i, e := range a {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		k, ok := obj[member].(string)
		if !ok || seen[k] {
			return nil, false
		}
		keys[i], seen[k] = k, true
	}
	return keys, true
}

// scalarEqual compares two values that are not both objects or both
// arrays. Numbers are equal when they are written alike or read as the
// same float64 (1 and 1.0).
func scalarEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	xa, okA := numberText(a)
	xb, okB := numberText(b)
	if !okA || !okB {
		return false
	}
	if xa == xb {
		return true
	}
	fa, errA := strconv.ParseFloat(xa, 64)
	fb, errB := strconv.ParseFloat(xb, 64)
	return errA == nil && errB == nil && fa == fb
}

// numberText returns a number as text.
func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return string(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}
