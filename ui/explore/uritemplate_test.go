package explore

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// rfcValues are the string variables of RFC 6570 section 3.2 (undef is
// left undefined), plus non-ASCII ones.
var rfcValues = map[string]string{
	"var": "value", "hello": "Hello World!", "path": "/foo/bar", "empty": "",
	"x": "1024", "y": "768", "half": "50%", "dub": "me/too", "base": "http://example.com/home/",
	"v": "6", "who": "fred", "uni": "é日x", "amp": "a b&c=d",
}

// TestURITemplateRFCExamples expands the examples of RFC 6570 section 3.2
// that use string values, and UTF-8 percent-encoding.
func TestURITemplateRFCExamples(t *testing.T) {
	cases := map[string]string{
		"{var}": "value", "{hello}": "Hello%20World%21", "{half}": "50%25", "O{empty}X": "OX", "O{undef}X": "OX",
		"{x,y}": "1024,768", "{x,hello,y}": "1024,Hello%20World%21,768", "?{x,empty}": "?1024,", "?{x,undef}": "?1024",
		"{base}index": "http%3A%2F%2Fexample.com%2Fhome%2Findex", "{undef}": "",
		"{+var}": "value", "{+hello}": "Hello%20World!", "{+half}": "50%25", "{+base}index": "http://example.com/home/index",
		"{+path}/here": "/foo/bar/here", "here?ref={+path}": "here?ref=/foo/bar", "{+path,x}/here": "/foo/bar,1024/here",
		"X{#var}": "X#value", "X{#hello}": "X#Hello%20World!", "{#path,x}/here": "#/foo/bar,1024/here", "{#undef}": "",
		"X{.var}": "X.value", "X{.x,y}": "X.1024.768", "X{.empty}": "X.", "X{.undef}": "X",
		"{/var}": "/value", "{/var,x}/here": "/value/1024/here", "{/var,empty}": "/value/", "{/undef}": "",
		"{;x,y}": ";x=1024;y=768", "{;x,y,empty}": ";x=1024;y=768;empty", "{;v,empty,who}": ";v=6;empty;who=fred",
		"{?x,y}": "?x=1024&y=768", "{?x,y,empty}": "?x=1024&y=768&empty=", "{?x,y,undef}": "?x=1024&y=768", "{?undef}": "",
		"?fixed=yes{&x}": "?fixed=yes&x=1024", "{&x,y,empty}": "&x=1024&y=768&empty=",
		"{var:3}": "val", "{var:30}": "value", "{+path:6}/here": "/foo/b/here", "{#path:6}/here": "#/foo/b/here",
		"X{.var:3}": "X.val", "{/var:1,var}": "/v/value", "{;hello:5}": ";hello=Hello", "{?var:3}": "?var=val",
		"{&var:3}": "&var=val", "{var*}": "value", "{/dub*}": "/me%2Ftoo",
		"{uni}": "%C3%A9%E6%97%A5x", "{uni:2}": "%C3%A9%E6%97%A5", "{?uni,amp}": "?uni=%C3%A9%E6%97%A5x&amp=a%20b%26c%3Dd",
		"{+amp}": "a%20b&c=d", "a b{var}": "a%20b" + "value", "%2F{var}%zz": "%2Fvalue%25zz",
	}
	for tmpl, want := range cases {
		tm, err := parseURITemplate(tmpl)
		if err != nil {
			t.Errorf("%s: %v", tmpl, err)
			continue
		}
		if got := tm.Expand(rfcValues); got != want {
			t.Errorf("%s expands to %q, want %q", tmpl, got, want)
		}
	}
}

// TestURITemplateErrors refuses what is not an RFC 6570 template.
func TestURITemplateErrors(t *testing.T) {
	for _, tmpl := range []string{"{", "a}", "{}", "{=x}", "{|x}", "{a b}", "{x:0}", "{x:10000}", "{x:01}",
		"{x:+1}", "{.}", "{a..b}", "{x,}", "{%zz}", "{a{b}}", strings.Repeat("a", maxURITemplate+1)} {
		if _, err := parseURITemplate(tmpl); err == nil {
			t.Errorf("%q was accepted", tmpl)
		}
	}
}

// TestURITemplateVars lists each variable once, in order, and asks for
// the variables a URI needs.
func TestURITemplateVars(t *testing.T) {
	tm, err := parseURITemplate("demo://{owner}/{+path}{?q,page}{#frag}{;v}{x}{owner}")
	if err != nil {
		t.Fatal(err)
	}
	want := []templateVar{
		{"owner", "{owner}", true}, {"path", "{+path}", true}, {"q", "{?q,page}", false},
		{"page", "{?q,page}", false}, {"frag", "{#frag}", false}, {"v", "{;v}", false}, {"x", "{x}", true},
	}
	if got := tm.Vars(); !reflect.DeepEqual(got, want) {
		t.Errorf("vars %+v\nwant %+v", got, want)
	}
}

// FuzzURITemplate: any template parses or is refused without a panic; an
// expansion holds only URI characters; a simple and a query expression
// percent-decode back to the value.
func FuzzURITemplate(f *testing.F) {
	for _, s := range []string{"{var}", "{+path}/x{?a,b}", "X{.x:3}{/y*}", "{#f}", "a b%2{;c}", "{"} {
		f.Add(s, "é 日/?&=%")
	}
	f.Fuzz(func(t *testing.T, tmpl, value string) {
		if tm, err := parseURITemplate(tmpl); err == nil {
			values := map[string]string{}
			for _, v := range tm.Vars() {
				if !validVarName(v.name) {
					t.Fatalf("variable %q of %q is not a varname", v.name, tmpl)
				}
				values[v.name] = value
			}
			out := tm.Expand(values)
			for i := 0; i < len(out); i++ {
				c := out[i]
				if !isUnreserved(c) && c != '%' && !strings.ContainsRune(":/?#[]@!$&'()*+,;=", rune(c)) {
					t.Fatalf("%q expands to %q with the byte %q", tmpl, out, c)
				}
			}
		}
		for tmpl, prefix := range map[string]string{"{v}": "", "{?v}": "?v=", "{/v}": "/"} {
			tm, err := parseURITemplate(tmpl)
			if err != nil {
				t.Fatal(err)
			}
			out := tm.Expand(map[string]string{"v": value})
			if !strings.HasPrefix(out, prefix) {
				t.Fatalf("%s expands %q to %q", tmpl, value, out)
			}
			if back, err := url.PathUnescape(out[len(prefix):]); err != nil || back != value {
				t.Fatalf("%s expands %q to %q, which decodes to %q (%v)", tmpl, value, out, back, err)
			}
		}
	})
}
