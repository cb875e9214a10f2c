package against

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/junit"
)

// stepOutcome is what the replay said of one step.
type stepOutcome struct {
	step   *replayStep
	status string // ok, differs, failed or skipped
	lines  []string
	took   time.Duration
}

// record keeps a step's outcome for the JUnit report.
func (p *Replayer) record(st *replayStep, status string, lines []string) {
	var took time.Duration
	if status != "skipped" && !p.stepBegan.IsZero() {
		took = p.clock().Sub(p.stepBegan)
	}
	p.outcomes = append(p.outcomes, stepOutcome{step: st, status: status, lines: lines, took: took})
}

// notReached is the reason given for the steps after the one the replay
// stopped at.
const notReached = "not sent: the replay stopped before it"

// JUnit returns the replay so far as a JUnit suite named name: a testcase
// per step, named "#N label" as the replay prints it, its class the
// method. An answer that differs or a tool result that is a failure is a
// failure with the difference lines; a step that is not sent again is
// skipped. runErr is how the run ended: an error other than the replay's
// own outcome (the connection failed, a timeout, an interrupt) is the
// error of the step in flight, or of the first step to send when none was
// sent, and the steps after it are skipped as not reached.
func (p *Replayer) JUnit(name string, runErr error) junit.Suite {
	suite := junit.Suite{Name: name, Time: p.clock().Sub(p.began)}
	for i, o := range p.outcomes {
		suite.Cases = append(suite.Cases, o.junitCase(i))
	}
	stopped := runErr != nil && !isOutcome(runErr)
	for i := len(p.outcomes); i < len(p.sess.steps); i++ {
		st := p.sess.steps[i]
		c := junit.Case{Name: caseName(i, st), Classname: st.method}
		switch {
		case st.skip != "":
			c.Skipped = &junit.Problem{Message: st.skip}
		case stopped:
			c.Error = &junit.Problem{Message: runErr.Error()}
			if st == p.current && !p.stepBegan.IsZero() {
				c.Time = p.clock().Sub(p.stepBegan)
			}
			stopped = false
		default:
			c.Skipped = &junit.Problem{Message: notReached}
		}
		suite.Cases = append(suite.Cases, c)
	}
	return suite
}

// isOutcome reports whether err is the replay's own verdict on the
// answers rather than a failure to run it.
func isOutcome(err error) bool {
	return errors.As(err, new(*MismatchError)) || errors.As(err, new(*client.ToolFailure))
}

// junitCase is the testcase of the i-th step's outcome.
func (o stepOutcome) junitCase(i int) junit.Case {
	c := junit.Case{Name: caseName(i, o.step), Classname: o.step.method, Time: o.took}
	first, rest := "", []string(nil)
	if len(o.lines) > 0 {
		first, rest = o.lines[0], o.lines[1:]
	}
	switch o.status {
	case "differs":
		c.Failure = &junit.Problem{Message: "the answer differs from the recording: " + first, Text: strings.Join(o.lines, "\n")}
	case "failed":
		c.Failure = &junit.Problem{Message: first, Text: strings.Join(rest, "\n")}
	case "skipped":
		c.Skipped = &junit.Problem{Message: strings.Join(o.lines, "; ")}
	}
	return c
}

// caseName names the i-th step: "#N" and its label.
func caseName(i int, st *replayStep) string {
	return fmt.Sprintf("#%d %s", i+1, st.label())
}
