package jsondiff

import (
	"strings"
	"testing"
)

// matches reports whether pattern src matches path p.
func matches(t *testing.T, src string, p Path) bool {
	t.Helper()
	pat, err := ParsePattern(src)
	if err != nil {
		t.Fatalf("ParsePattern(%q): %v", src, err)
	}
	m := matcher{pats: []Pattern{pat}}
	s := m.start()
	for _, seg := range p {
		if m.matched(s, 0, 1) == 0 {
			return true // what lies below a matched path goes with it
		}
		s = m.next(s, seg)
	}
	return m.matched(s, 0, 1) == 0
}

func TestPatternMatches(t *testing.T) {
	tools2Desc := Path{Member("result"), Member("tools"), Element(2), Member("description")}
	meta := Path{Member("result"), Member("content"), Element(0), Member("_meta"), Member("x")}
	for _, c := range []struct {
		pat  string
		path Path
		want bool
	}{
		{"$", tools2Desc, true},
		{"$.result.tools[2].description", tools2Desc, true},
		{"$.result.tools[1].description", tools2Desc, false},
		{"$.result.tools[*].description", tools2Desc, true},
		{"$.result.tools.*.description", tools2Desc, true},
		{"$.result.*[2]", tools2Desc, true},
		{"$.result.tools[*].annotations", tools2Desc, false},
		{"$.result.tools", tools2Desc, true},
		{`$["result"]['tools'][2]`, tools2Desc, true},
		{"$..description", tools2Desc, true},
		{"$..tools[2]", tools2Desc, true},
		{"$..[2].description", tools2Desc, true},
		{"$..result.tools[2].description", tools2Desc, true},
		{"$..tools..description", tools2Desc, true},
		{"$..name", tools2Desc, false},
		{"$.tools", tools2Desc, false},
		{"$.._meta", meta, true},
		{"$..*", meta, true},
		{"$.result.content[0]._meta.y", meta, false},
		{`$["a.b"]`, Path{Member("a.b")}, true},
		{`$.a.b`, Path{Member("a.b")}, false},
		{`$["say \"hi\"\n"]`, Path{Member("say \"hi\"\n")}, true},
		{`$['it\'s']`, Path{Member("it's")}, true},
		{`$['back\\slash']`, Path{Member(`back\slash`)}, true},
		{`$.$schema`, Path{Member("$schema")}, true},
		{"$.é", Path{Member("é")}, true},
		{"$[0]", Path{Member("0")}, false},
		{`$["0"]`, Path{Element(0)}, false},
	} {
		if got := matches(t, c.pat, c.path); got != c.want {
			t.Errorf("%s on %s: %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "a path starts with $"},
		{"result.tools", "a path starts with $"},
		{"$.", "ends after a dot"},
		{"$..", "ends after a dot"},
		{"$.result.", "at byte 8 of the path: the path ends after a dot"},
		{"$result", `"r" cannot start a step`},
		{"$[", "ends after ["},
		{"$[1", "a ] is missing"},
		{"$[01]", "is not an index"},
		{"$[99999999999]", "is not an index"},
		{"$[-1]", "[ takes an index"},
		{`$["abc]`, "no closing"},
		{`$["\q"]`, "bad escape"},
		{"$.a b", `" " cannot start a step`},
		{"$.[0]", "cannot start a name after a dot"},
		{"$\xff", "not valid UTF-8"},
		{"$" + strings.Repeat(".a", MaxPattern), "at most 4096 are read"},
	} {
		_, err := ParsePattern(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePattern(%q) = %v, want an error saying %q", c.src, err, c.want)
		}
	}
}

// A path renders in the syntax ParsePattern reads, and reads back as a
// pattern that matches it.
func TestPathRoundTrip(t *testing.T) {
	p := Path{Member("result"), Member("tools"), Element(12), Member("io.x/y"), Member(`q"\`), Member(""), Member("$ref"), Member("a b")}
	s := p.String()
	if want := `$.result.tools[12]["io.x/y"]["q\"\\"][""].$ref["a b"]`; s != want {
		t.Fatalf("String() = %s, want %s", s, want)
	}
	if !matches(t, s, p) {
		t.Errorf("%s does not match its own path", s)
	}
}

// FuzzParsePattern: any text parses or fails without panicking, and a
// pattern that parses matches the paths a rendered path names.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"$", "$.a", "$..b[*]", `$["x\"y"]['z\'']`, "$[0][12].c", "$..*", "$.", "$[", `$["\u00e9"]`,
		"$" + strings.Repeat(`['a"b']`, 585)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePattern(s)
		if err != nil {
			return
		}
		if p.String() != s {
			t.Fatalf("String() = %q, want %q", p.String(), s)
		}
		// A pattern without wildcards names one path; its rendering reads
		// back as a pattern that matches that path.
		var path Path
		for _, st := range p.steps {
			if st.deep || st.kind == stepAny {
				return
			}
			if st.kind == stepIndex {
				path = append(path, Element(st.index))
			} else {
				path = append(path, Member(st.name))
			}
		}
		rendered := path.String()
		if len(rendered) > MaxPattern {
			return // quoting made it longer than a pattern may be
		}
		if !matches(t, rendered, path) {
			t.Fatalf("%q renders as %s, which does not match it", s, rendered)
		}
	})
}
