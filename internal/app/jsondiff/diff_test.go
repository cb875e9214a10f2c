package jsondiff

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("Decode(%.60s): %v", s, err)
	}
	return v
}

// lines renders a report one difference a line: PATH: OLD → NEW.
func lines(r Report) []string {
	var out []string
	for _, d := range r.Diffs {
		out = append(out, d.Line(80))
	}
	if r.Omitted > 0 {
		out = append(out, fmt.Sprintf("+%d", r.Omitted))
	}
	return out
}

func compare(t testing.TB, old, new string, o Options) []string {
	t.Helper()
	return lines(Compare(decode(t, old), decode(t, new), o))
}

func check(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("differences:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestComparePaths(t *testing.T) {
	old := `{"result":{"tools":[{"name":"a"},{"name":"b"},{"name":"echo","description":"Echo"}],"n":1,"gone":true,"kind":[1]}}`
	new := `{"result":{"tools":[{"name":"a"},{"name":"b"},{"name":"echo","description":"Echo text"}],"n":1.0,"new":null,"kind":{"x":1}}}`
	check(t, compare(t, old, new, Options{}),
		`$.result.gone: true → (none)`,
		`$.result.kind: [1] → {"x":1}`,
		`$.result.new: (none) → null`,
		`$.result.tools[2].description: "Echo" → "Echo text"`,
	)
	check(t, compare(t, `[1,2,3]`, `[1,3]`, Options{}), `$[1]: 2 → 3`, `$[2]: 3 → (none)`)
	check(t, compare(t, `{"a.b":{"":"x"}}`, `{"a.b":{"":"y"}}`, Options{}), `$["a.b"][""]: "x" → "y"`)
	check(t, compare(t, `{"a":1,"b":[true,null,"s",{}]}`, `{"b":[true,null,"s",{}],"a":1}`, Options{}))
	check(t, compare(t, `1e2`, `100`, Options{}))
	check(t, compare(t, `1e400`, `1e401`, Options{}), `$: 1e400 → 1e401`)
	check(t, compare(t, `"1"`, `1`, Options{}), `$: "1" → 1`)
	check(t, compare(t, `null`, `false`, Options{}), `$: null → false`)
}

// An error answer against a result answer: one removed, one added.
func TestCompareErrorAndResult(t *testing.T) {
	check(t, compare(t, `{"result":{"content":[]}}`, `{"error":{"code":-32602,"message":"bad"}}`, Options{}),
		`$.error: (none) → {"code":-32602,"message":"bad"}`,
		`$.result: {"content":[]} → (none)`,
	)
}

func TestCompareIgnores(t *testing.T) {
	old := `{"result":{"_meta":{"t":1},"tools":[{"name":"a","annotations":{"x":1},"d":"1"},{"name":"b","annotations":{"x":2}}],"sessionId":"s1","deep":{"er":{"sessionId":"s2"}}}}`
	new := `{"result":{"_meta":{"t":2},"tools":[{"name":"a","annotations":{"x":9},"d":"2"},{"name":"b"}],"sessionId":"s3","deep":{"er":{"sessionId":"s4"}}}}`
	ign := func(srcs ...string) Options {
		var o Options
		for _, s := range srcs {
			o.Ignore = append(o.Ignore, MustPattern(s))
		}
		return o
	}
	check(t, compare(t, old, new, ign("$.._meta", "$..sessionId", "$.result.tools[*].annotations")), `$.result.tools[0].d: "1" → "2"`)
	check(t, compare(t, old, new, ign("$.._meta", "$..sessionId", "$.result.tools[0]")), `$.result.tools[1].annotations: {"x":2} → (none)`)
	check(t, compare(t, old, new, ign("$")))
	check(t, compare(t, old, new, ign("$..*")))
	check(t, compare(t, old, new, ign("$.result.*")))
	got := compare(t, old, new, Options{})
	if len(got) != 6 {
		t.Errorf("without ignores: %q", got)
	}
}

var toolsKeyed = Options{Keyed: []Keyed{{Array: MustPattern("$.result.tools"), Member: "name"}}}

// Tools are matched by name: a reordered list is equal; added, removed and
// changed tools are each named by their key.
func TestCompareKeyed(t *testing.T) {
	old := `{"result":{"tools":[{"name":"a","description":"A"},{"name":"b"},{"name":"c","inputSchema":{"type":"object"}}]}}`
	same := `{"result":{"tools":[{"name":"c","inputSchema":{"type":"object"}},{"name":"a","description":"A"},{"name":"b"}]}}`
	check(t, compare(t, old, same, toolsKeyed))
	check(t, compare(t, old, same, Options{}), // by position everything moved
		`$.result.tools[0].description: "A" → (none)`,
		`$.result.tools[0].inputSchema: (none) → {"type":"object"}`,
		`$.result.tools[0].name: "a" → "c"`,
		`$.result.tools[1].description: (none) → "A"`,
		`$.result.tools[1].name: "b" → "a"`,
		`$.result.tools[2].inputSchema: {"type":"object"} → (none)`,
		`$.result.tools[2].name: "c" → "b"`,
	)
	new := `{"result":{"tools":[{"name":"d"},{"name":"c","inputSchema":{"type":"string"}},{"name":"a","description":"A!"}]}}`
	r := Compare(decode(t, old), decode(t, new), toolsKeyed)
	check(t, lines(r),
		`$.result.tools[2].description: "A" → "A!"`,
		`$.result.tools[1]: {"name":"b"} → (none)`,
		`$.result.tools[1].inputSchema.type: "object" → "string"`,
		`$.result.tools[0]: (none) → {"name":"d"}`,
	)
	var keys []string
	for _, d := range r.Diffs {
		seg := d.Path()[2]
		if !seg.HasKey {
			t.Fatalf("%s: the tool's segment carries no key", d.Path())
		}
		keys = append(keys, seg.Key)
	}
	if !slices.Equal(keys, []string{"a", "b", "c", "d"}) {
		t.Errorf("keys %q", keys)
	}
}

// An array whose elements lack the key, or share one, is compared by
// position.
func TestCompareKeyedFallsBack(t *testing.T) {
	check(t, compare(t, `{"result":{"tools":[{"name":"a"},{"name":"a","x":1}]}}`, `{"result":{"tools":[{"name":"a","x":1},{"name":"a"}]}}`, toolsKeyed),
		`$.result.tools[0].x: (none) → 1`, `$.result.tools[1].x: 1 → (none)`)
	check(t, compare(t, `{"result":{"tools":[1,{"name":"a"}]}}`, `{"result":{"tools":[{"name":"a"},1]}}`, toolsKeyed),
		`$.result.tools[0]: 1 → {"name":"a"}`, `$.result.tools[1]: {"name":"a"} → 1`)
}

func TestCompareMax(t *testing.T) {
	var a, b strings.Builder
	a.WriteByte('[')
	b.WriteByte('[')
	for i := range 50 {
		if i > 0 {
			a.WriteByte(',')
			b.WriteByte(',')
		}
		fmt.Fprintf(&a, "%d", i)
		fmt.Fprintf(&b, "%d", i+1)
	}
	a.WriteByte(']')
	b.WriteByte(']')
	r := Compare(decode(t, a.String()), decode(t, b.String()), Options{Max: 10})
	if len(r.Diffs) != 10 || r.Omitted != 40 || r.Equal() {
		t.Errorf("%d listed, %d omitted", len(r.Diffs), r.Omitted)
	}
}

// nested returns a value nested depth levels deep: objects and arrays in
// turn, leaf at the bottom.
func nested(depth int, leaf string) string {
	var b strings.Builder
	for i := range depth {
		if i%2 == 0 {
			b.WriteString(`{"k":`)
		} else {
			b.WriteByte('[')
		}
	}
	b.WriteString(leaf)
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String()
}

// A difference 10,000 levels down is found and named, with the default
// volatile-style patterns (descent) in play, without recursion.
func TestCompareDeep(t *testing.T) {
	const depth = 9999 // encoding/json reads up to 10000 levels; the leaf is one more
	old, new := decode(t, nested(depth, "1")), decode(t, nested(depth, "2"))
	o := Options{Ignore: []Pattern{MustPattern("$.._meta"), MustPattern("$..sessionId"), MustPattern("$..x[*].y")}}
	r := Compare(old, new, o)
	if len(r.Diffs) != 1 {
		t.Fatalf("%d differences", len(r.Diffs))
	}
	p := r.Diffs[0].Path()
	if len(p) != depth {
		t.Fatalf("path of %d segments, want %d", len(p), depth)
	}
	if s := p.String(); !strings.HasPrefix(s, "$.k[0].k[0]") || !strings.HasSuffix(s, ".k") {
		t.Errorf("path %.40s…%s", s, s[len(s)-20:])
	}
	if Render(r.Diffs[0].Old, 0) != "1" {
		t.Errorf("old %s", Render(r.Diffs[0].Old, 0))
	}
	if !Compare(old, decode(t, nested(depth, "1")), o).Equal() {
		t.Error("equal deep values differ")
	}
	// Rendering the whole deep value stops at its limit.
	if s := Render(old, 100); len(s) > 100+len("…") || !strings.HasSuffix(s, "…") {
		t.Errorf("Render of a deep value: %d bytes", len(s))
	}
	if _, err := Decode([]byte(nested(20000, "1"))); err == nil {
		t.Error("a value nested 20000 deep decodes")
	}
}

func TestRender(t *testing.T) {
	v := decode(t, `{"b":[1,2.50,true,null],"a":"x\"\n\u0001é","c":{}}`)
	if got, want := Render(v, 0), `{"a":"x\"\n\u0001é","b":[1,2.50,true,null],"c":{}}`; got != want {
		t.Errorf("Render = %s, want %s", got, want)
	}
	long := decode(t, `"`+strings.Repeat("é", 1000)+`"`)
	if got := Render(long, 21); got != `"`+strings.Repeat("é", 10)+"…" {
		t.Errorf("Render of a long string = %s", got)
	}
	if got := Render(decode(t, `[]`), 0); got != `[]` {
		t.Errorf("Render([]) = %s", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, s := range []string{``, `{`, `1 2`, `{"a":}`} {
		if _, err := Decode([]byte(s)); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
	}
}

// BenchmarkCompareDeep measures a 10,000-deep comparison against a flat
// one of as many values in the same run: the ratio shows depth costs no
// more than breadth.
func BenchmarkCompareDeep(b *testing.B) {
	deepOld, deepNew := decode(b, nested(9999, "1")), decode(b, nested(9999, "2"))
	flat := func(leaf string) any {
		var s strings.Builder
		s.WriteByte('[')
		for i := range 9999 {
			if i > 0 {
				s.WriteByte(',')
			}
			s.WriteString(`{"k":1}`)
		}
		s.WriteString(`,` + leaf + `]`)
		return decode(b, s.String())
	}
	flatOld, flatNew := flat("1"), flat("2")
	o := Options{Ignore: []Pattern{MustPattern("$.._meta"), MustPattern("$..sessionId")}}
	b.Run("flat", func(b *testing.B) {
		for b.Loop() {
			Compare(flatOld, flatNew, o)
		}
	})
	b.Run("deep", func(b *testing.B) {
		for b.Loop() {
			Compare(deepOld, deepNew, o)
		}
	})
}

// FuzzCompare: any two JSON values compare without panicking, a value
// equals itself, and every difference names a path both renders and the
// pattern syntax reads back.
func FuzzCompare(f *testing.F) {
	f.Add(`{"result":{"tools":[{"name":"a"},{"name":"b"}]}}`, `{"result":{"tools":[{"name":"b","x":1}]}}`)
	f.Add(`[1,[2,{"a.b":"c"}]]`, `[1,[3]]`)
	f.Add(`{"_meta":1,"":{"\u202e":2}}`, `null`)
	o := Options{Ignore: []Pattern{MustPattern("$.._meta"), MustPattern("$..x[*]")}, Keyed: toolsKeyed.Keyed, Max: 50}
	f.Fuzz(func(t *testing.T, a, b string) {
		old, errA := Decode([]byte(a))
		new, errB := Decode([]byte(b))
		if errA != nil || errB != nil {
			return
		}
		if r := Compare(old, old, o); !r.Equal() {
			t.Fatalf("%s differs from itself: %v", a, lines(r))
		}
		r := Compare(old, new, o)
		if len(r.Diffs) > o.Max {
			t.Fatalf("%d differences listed, at most %d wanted", len(r.Diffs), o.Max)
		}
		for _, d := range r.Diffs {
			s := d.Path().String()
			if len(s) > MaxPattern {
				continue
			}
			if !matches(t, s, d.Path()) {
				t.Fatalf("the path %s does not read back", s)
			}
			_ = Render(d.Old, 64) + Render(d.New, 64)
		}
	})
}
