// Package junit writes test reports in the JUnit XML format CI services
// read (Jenkins, GitLab, GitHub test reporters): one testsuite of
// testcases, each passed, failed, in error or skipped.
package junit

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Suite is one testsuite: its name, its cases and how long it ran.
type Suite struct {
	Name  string
	Time  time.Duration
	Cases []Case
}

// Case is one testcase. At most one of Failure, Error and Skipped is set;
// none means it passed.
type Case struct {
	Name      string
	Classname string
	Time      time.Duration
	Failure   *Problem // the test ran and its outcome is wrong
	Error     *Problem // the test could not run to an outcome
	Skipped   *Problem // the test was not run
	SystemOut string   // what the case printed beside its outcome (notes); "" for none
}

// Problem is why a case failed, erred or was skipped: a one-line message
// and the detail lines.
type Problem struct {
	Message string
	Type    string // the kind of problem, such as a severity; "" for none
	Text    string
}

// Marshal returns the suite as an XML document. Every text is made safe
// for XML first: invalid UTF-8 and control characters (but LF and TAB)
// are written as escapes, the way a terminal is shown them, and a text
// longer than termtext.DefaultMax is shortened.
func Marshal(s Suite) ([]byte, error) {
	doc := xmlSuite{Name: text(s.Name), Time: seconds(s.Time), Tests: len(s.Cases)}
	for _, c := range s.Cases {
		x := xmlCase{Name: text(c.Name), Classname: text(c.Classname), Time: seconds(c.Time), SystemOut: text(c.SystemOut)}
		switch {
		case c.Failure != nil:
			x.Failure = c.Failure.xml()
			doc.Failures++
		case c.Error != nil:
			x.Error = c.Error.xml()
			doc.Errors++
		case c.Skipped != nil:
			x.Skipped = c.Skipped.xml()
			doc.Skipped++
		}
		doc.Cases = append(doc.Cases, x)
	}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing the JUnit report: %w", err)
	}
	return append(append([]byte(xml.Header), b...), '\n'), nil
}

// xmlSuite is the <testsuite> element.
type xmlSuite struct {
	XMLName  xml.Name  `xml:"testsuite"`
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Time     string    `xml:"time,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

// xmlCase is a <testcase> element.
type xmlCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	Time      string      `xml:"time,attr"`
	Failure   *xmlProblem `xml:"failure"`
	Error     *xmlProblem `xml:"error"`
	Skipped   *xmlProblem `xml:"skipped"`
	SystemOut string      `xml:"system-out,omitempty"`
}

// xmlProblem is a <failure>, <error> or <skipped> element.
type xmlProblem struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// xml returns p with its texts made safe.
func (p *Problem) xml() *xmlProblem {
	return &xmlProblem{Message: text(termtext.Line(p.Message)), Type: text(termtext.Line(p.Type)), Text: text(p.Text)}
}

// text makes s safe for XML, keeping its line breaks: termtext escapes
// the controls and invalid bytes, and the two non-characters XML refuses
// are escaped here.
func text(s string) string { return nonCharacters.Replace(termtext.Block(s)) }

// nonCharacters escapes U+FFFE and U+FFFF, valid UTF-8 but no XML.
var nonCharacters = strings.NewReplacer("\ufffe", `\ufffe`, "\uffff", `\uffff`)

// seconds writes d in seconds with millisecond precision.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
