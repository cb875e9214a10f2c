package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineEscapesWhatATerminalActsOn(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"title\x1b]0;pwned\x07", `title\x1b]0;pwned\x07`},
		{"\x1b]52;c;aGVsbG8=\x07", `\x1b]52;c;aGVsbG8=\x07`},
		{"\x1b[2Jgone", `\x1b[2Jgone`},
		{"a\nb\r\nc\td", `a\nb\r\nc\td`},
		{"del\x7f", `del\x7f`},
		{"csi\u009b2J", `csi\u009b2J`},
		{"rtl\u202eevil", `rtl\u202eevil`},
		{"iso\u2066x\u2069", `iso\u2066x\u2069`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"ünïcödé — 日本 🙂", "ünïcödé — 日本 🙂"},
		{"nul\x00", `nul\x00`},
		{"picture\U0010EEEE\u0305\u0305", `picture\U0010eeee̅̅`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBlockKeepsLineBreaks(t *testing.T) {
	got := Block("one\r\ntwo\n\tthree\rfour\x1b[31m")
	want := "one\ntwo\n\tthree\\rfour\\x1b[31m"
	if got != want {
		t.Fatalf("Block = %q, want %q", got, want)
	}
}

func TestLongTextIsShortenedAndSaysSo(t *testing.T) {
	in := strings.Repeat("é", 1<<20) // 2 MiB
	got := Line(in)
	if len(got) > DefaultMax+64 {
		t.Fatalf("Line kept %d bytes of %d", len(got), len(in))
	}
	if !utf8.ValidString(got) || !strings.HasSuffix(got, " bytes, 2031616 not shown)") || !strings.Contains(got, "(2097152 bytes") {
		t.Fatalf("shortened text ends %q", got[len(got)-60:])
	}
	if got := LineMax("abcdef", 0); got != "abcdef" {
		t.Fatalf("LineMax with no limit = %q", got)
	}
	if got := Shorten("abcdef", 3); got != "abc… (6 bytes, 3 not shown)" {
		t.Fatalf("Shorten = %q", got)
	}
}

func TestSafe(t *testing.T) {
	for _, s := range []string{"", "abc", "日本"} {
		if !Safe(s) {
			t.Errorf("Safe(%q) = false", s)
		}
	}
	for _, s := range []string{"\x1b", "a\nb", "\u202e", "\xff", "\u0085"} {
		if Safe(s) {
			t.Errorf("Safe(%q) = true", s)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a\x1b]0;x\x07", "\u202e\xff\u009b", "one\r\ntwo"} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1 << 12
		for _, out := range []string{LineMax(s, max), BlockMax(s, max), QuoteMax(s, max)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q", s)
			}
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || unsafeRune(r) {
					t.Fatalf("control %U left in %q", r, out)
				}
			}
		}
		if out := LineMax(s, max); strings.ContainsAny(out, "\n\t") {
			t.Fatalf("Line kept a break: %q", out)
		}
		if max <= 0 && Safe(s) && Line(s) != s && len(s) <= DefaultMax {
			t.Fatalf("safe text changed: %q → %q", s, Line(s))
		}
	})
}

func TestQuoteMax(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain é", `"plain é"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"a\x1b]0;x\x07\n", `"a\x1b]0;x\x07\n"`},
	}
	for _, c := range cases {
		if got := QuoteMax(c.in, 0); got != c.want {
			t.Errorf("QuoteMax(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := QuoteMax(strings.Repeat("x", 100), 10); got != `"xxxxxxxxxx… (100 bytes, 90 not shown)"` {
		t.Errorf("shortened: %s", got)
	}
}

func BenchmarkLineASCII(b *testing.B) {
	s := strings.Repeat("tools/call failed: unknown tool ", 4)
	for b.Loop() {
		_ = Line(s)
	}
}

func BenchmarkLineSafeUnicode(b *testing.B) {
	s := "12:03:04.123 ← control 85B request tools/call id=2 · résumé…"
	for b.Loop() {
		_ = Line(s)
	}
}
