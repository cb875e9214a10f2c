package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/junit"
	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// junitSuiteName names the one test suite of the JUnit format.
const junitSuiteName = "mcpscope lint"

// serverSubject is the test case of findings that name no subject.
const serverSubject = "server"

// WriteJUnit prints r as JUnit XML (internal/app/junit): one suite,
// "mcpscope lint", with one test case per thing the server offers (each
// tool, prompt and resource template, and any other subject a finding
// names). A case fails when it has a finding of error or warning
// severity; its failure lists every such finding with its rule, path,
// message and fix, and info findings go to its system-out. A case per
// subject is what CI test views show well: the count stays steady from
// run to run, a red case names the tool to fix, and it shows all that
// tool's problems at once.
func WriteJUnit(w io.Writer, r Report) error {
	subjects, bySubject := junitSubjects(r)
	suite := junit.Suite{Name: junitSuiteName, Cases: make([]junit.Case, 0, len(subjects))}
	for _, s := range subjects {
		c := junit.Case{Name: s.name, Classname: s.class}
		var failing, notes []string
		worst := lint.SeverityInfo
		for _, f := range bySubject[s.key] {
			line := fmt.Sprintf("%s %s at %s: %s", f.Severity, f.Rule, f.Path, f.Message)
			if f.Fix != "" {
				line += " Fix: " + f.Fix
			}
			switch f.Severity {
			case lint.SeverityError:
				worst = lint.SeverityError
				failing = append(failing, line)
			case lint.SeverityWarning:
				if worst != lint.SeverityError {
					worst = lint.SeverityWarning
				}
				failing = append(failing, line)
			default:
				notes = append(notes, line)
			}
		}
		if len(failing) > 0 {
			c.Failure = &junit.Problem{Message: plural.Count(len(failing), "finding", "findings"),
				Type: string(worst), Text: strings.Join(failing, "\n")}
		}
		c.SystemOut = strings.Join(notes, "\n")
		suite.Cases = append(suite.Cases, c)
	}
	b, err := junit.Marshal(suite)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// junitSubject is one test case: a key findings are grouped by, a name
// and a class.
type junitSubject struct{ key, name, class string }

// junitSubjects lists the test cases in order (the cost table's entries
// in listing order, then subjects only findings name) and groups the
// findings by case. A finding is matched to its entry by its Kind and
// Name; one without them (a finding about the server or a whole
// listing) by its subject.
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
		add(entrySubject(it.Kind, it.Name))
	}
	by := map[string][]lint.Finding{}
	for _, f := range r.Findings {
		s := findingSubject(f)
		by[s.key] = append(by[s.key], f)
		add(s)
	}
	return subjects, by
}

// entrySubject is the test case of the entry of kind (a listing's name:
// "tool", "resourceTemplate") named name.
func entrySubject(kind, name string) junitSubject {
	class := kindNames[kind]
	if class == "" {
		class = kind
	}
	return junitSubject{key: kind + "\x00" + name, name: name, class: class}
}

// findingSubject is the test case a finding belongs to.
func findingSubject(f lint.Finding) junitSubject {
	if f.Kind != "" && f.Name != "" {
		return entrySubject(f.Kind, f.Name)
	}
	if f.Subject == "" {
		return junitSubject{key: serverSubject, name: serverSubject, class: serverSubject}
	}
	if kind, name, ok := cutKind(f.Subject); ok {
		return entrySubject(kind, name)
	}
	return junitSubject{key: "\x00" + f.Subject, name: f.Subject, class: serverSubject}
}

// cutKind splits a subject such as "tool echo" or "resource template
// files" into its listing's kind and its name.
func cutKind(subject string) (kind, name string, ok bool) {
	for _, k := range []string{tokencost.KindTool, tokencost.KindPrompt, tokencost.KindResourceTemplate} {
		if n, found := strings.CutPrefix(subject, kindNames[k]+" "); found {
			return k, n, true
		}
	}
	if n, found := strings.CutPrefix(subject, "resource "); found {
		return "resource", n, true
	}
	return "", "", false
}
