package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// junitSuiteName names the one test suite of the JUnit format.
const junitSuiteName = "mcpscope lint"

// serverSubject is the test case of findings that name no subject.
const serverSubject = "server"

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit prints r as JUnit XML: one suite, "mcpscope lint", with one
// test case per thing the server offers (each tool, prompt and resource
// template, and any other subject a finding names). A case fails when it
// has a finding of error or warning severity; its failure lists every
// such finding with its rule, path, message and fix, and info findings go
// to its system-out. A case per subject is what CI test views show well:
// the count stays steady from run to run, a red case names the tool to
// fix, and it shows all that tool's problems at once.
func WriteJUnit(w io.Writer, r Report) error {
	subjects, bySubject := junitSubjects(r)
	suite := junitSuite{Name: junitSuiteName}
	for _, s := range subjects {
		c := junitCase{Name: safe(s.name), Classname: safe(s.class)}
		var failing, notes []string
		worst := lint.SeverityInfo
		for _, f := range bySubject[s.key] {
			line := fmt.Sprintf("%s %s at %s: %s", f.Severity, f.Rule, f.Path, f.Message)
			if f.Fix != "" {
				line += " Fix: " + f.Fix
			}
			if f.Severity == lint.SeverityError || f.Severity == lint.SeverityWarning {
				failing = append(failing, safe(line))
				if f.Severity == lint.SeverityError {
					worst = lint.SeverityError
				} else if worst != lint.SeverityError {
					worst = lint.SeverityWarning
				}
			} else {
				notes = append(notes, safe(line))
			}
		}
		if len(failing) > 0 {
			c.Failure = &junitFailure{Message: fmt.Sprintf("%d %s", len(failing), map[bool]string{true: "finding", false: "findings"}[len(failing) == 1]),
				Type: string(worst), Text: strings.Join(failing, "\n")}
			suite.Failures++
		}
		c.SystemOut = strings.Join(notes, "\n")
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	doc := junitSuites{Name: junitSuiteName, Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSubject is one test case: a key findings are grouped by, a name
// and a class.
type junitSubject struct{ key, name, class string }

// junitSubjects lists the test cases in order (the cost table's entries
// in listing order, then subjects only findings name) and groups the
// findings by case.
func junitSubjects(r Report) ([]junitSubject, map[string][]lint.Finding) {
	var subjects []junitSubject
	seen := map[string]bool{}
	add := func(s junitSubject) {
		if !seen[s.key] {
			seen[s.key] = true
			subjects = append(subjects, s)
		}
	}
	for _, it := range r.Cost.Items {
		kind := kindNames[it.Kind]
		add(junitSubject{key: kind + " " + it.Name, name: it.Name, class: kind})
	}
	by := map[string][]lint.Finding{}
	for _, f := range r.Findings {
		key := f.Subject
		if key == "" {
			key = serverSubject
		}
		by[key] = append(by[key], f)
		class, name, ok := cutKind(key)
		if !ok {
			class, name = serverSubject, key
		}
		add(junitSubject{key: key, name: name, class: class})
	}
	return subjects, by
}

// cutKind splits a subject such as "tool echo" or "resource template
// files" into its kind and name.
func cutKind(subject string) (kind, name string, ok bool) {
	for _, k := range []string{tokencost.KindTool, tokencost.KindPrompt, tokencost.KindResourceTemplate} {
		if n, found := strings.CutPrefix(subject, kindNames[k]+" "); found {
			return kindNames[k], n, true
		}
	}
	if n, found := strings.CutPrefix(subject, "resource "); found {
		return "resource", n, true
	}
	return "", "", false
}

// safe keeps server text printable in XML and on a terminal: controls are
// shown escaped (termtext), which XML 1.0 could not hold raw anyway.
func safe(s string) string { return termtext.LineMax(s, termtext.WholeLineMax) }
