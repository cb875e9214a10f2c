package junit

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// parsed is the report as a CI service reads it.
type parsed struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	Cases    []struct {
		Name      string `xml:"name,attr"`
		Classname string `xml:"classname,attr"`
		Failure   *struct {
			Message string `xml:"message,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	} `xml:"testcase"`
}

func parse(t *testing.T, b []byte) parsed {
	t.Helper()
	var p parsed
	if err := xml.Unmarshal(b, &p); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, b)
	}
	return p
}

// Counts, times and texts survive a round trip through encoding/xml; text
// a server wrote (controls, invalid UTF-8, non-characters, a CDATA end)
// arrives escaped, never breaking the document.
func TestMarshalParsesBack(t *testing.T) {
	hostile := "a\x1b]0;owned\x07 b\xff c\x00 d\ufffe e]]> f\r\ng\u202e"
	s := Suite{Name: "s.jsonl", Time: 1500 * time.Millisecond, Cases: []Case{
		{Name: "#1 ping", Classname: "ping", Time: 2 * time.Millisecond},
		{Name: "#2 tools/call " + hostile, Classname: "tools/call", Failure: &Problem{Message: hostile, Text: "line 1\n" + hostile}},
		{Name: "#3 x", Classname: "x", Error: &Problem{Message: "connection lost"}},
		{Name: "#4 y", Classname: "y", Skipped: &Problem{Message: "not sent"}},
	}}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p := parse(t, b)
	if p.Name != "s.jsonl" || p.Tests != 4 || p.Failures != 1 || p.Errors != 1 || p.Skipped != 1 || p.Time != "1.500" {
		t.Errorf("suite %+v", p)
	}
	f := p.Cases[1].Failure
	if f == nil || p.Cases[2].Error == nil || p.Cases[3].Skipped == nil || p.Cases[0].Failure != nil {
		t.Fatalf("cases %+v", p.Cases)
	}
	for _, got := range []string{p.Cases[1].Name, f.Message, f.Text} {
		if strings.ContainsAny(got, "\x1b\x07\x00\r\ufffe\u202e") || !strings.Contains(got, `\x1b]0;owned\x07`) || !strings.Contains(got, `\ufffe`) {
			t.Errorf("text not escaped: %q", got)
		}
	}
	if !strings.HasPrefix(f.Text, "line 1\n") || !strings.Contains(f.Text, "e]]> f") {
		t.Errorf("failure text %q", f.Text)
	}
}

// WriteFile replaces the file whole and leaves no temporary file beside it.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, Suite{Name: "n", Cases: []Case{{Name: "a"}}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := parse(t, b); p.Tests != 1 {
		t.Errorf("report %s", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "r.xml"), Suite{}); err == nil {
		t.Error("a report in a missing folder was written")
	}
}

// Whatever the texts, the report parses back.
func FuzzMarshal(f *testing.F) {
	f.Add("#1 tools/call", "message", "a\nb")
	f.Add("\xff\x00", "]]>", "\ufffe\x1b")
	f.Fuzz(func(t *testing.T, name, message, text string) {
		b, err := Marshal(Suite{Name: name, Cases: []Case{{Name: name, Classname: message, Failure: &Problem{Message: message, Text: text}}}})
		if err != nil {
			t.Fatal(err)
		}
		var p parsed
		if err := xml.Unmarshal(b, &p); err != nil || len(p.Cases) != 1 || p.Cases[0].Failure == nil {
			t.Fatalf("%v\n%s", err, b)
		}
	})
}
