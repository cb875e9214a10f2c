package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Interactive servers played by the stub server (stubserver_test.go): one
// that warns before the session expires, and ones that break seed 002. The
// script must report each on stderr, exit with the right code and never
// hang.

// wizardScript is what a scripted interactive stub sends after answering a
// method: the answer's result (empty: the method is not the stub's) and
// further lines, or "exit" to die.
type wizardScript map[string]struct {
	result string
	then   []string
}

func init() {
	expires := strconv.FormatInt(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).UnixMilli(), 10)
	stubRequestHooks["wizard-warns"] = wizardStub(wizardScript{
		"interaction.start": {result: `{"sessionId":"s1","state":"idle","initialPrompt":{"type":"text","message":"Name?"}}`},
		"interaction.respond": {result: `{"accepted":true}`, then: []string{
			`{"jsonrpc":"2.0","id":"w1","method":"interaction.continue","params":{"sessionId":"s1","message":"session expires in 10 s","expiresAt":` + expires + `}}`,
			`{"jsonrpc":"2.0","id":"w2","method":"interaction.continue","params":{"sessionId":"s1","message":"one more thing","nextPrompt":{"type":"confirm","message":"Sure?"}}}`,
		}},
	})
	stubRequestHooks["wizard-illegal"] = wizardStub(wizardScript{
		// A completion from idle skips the whole session.
		"interaction.start": {result: `{"sessionId":"s1","state":"idle"}`, then: []string{
			`{"jsonrpc":"2.0","id":"c1","method":"interaction.complete","params":{"sessionId":"s1","result":{}}}`,
		}},
	})
	stubRequestHooks["wizard-dies"] = wizardStub(wizardScript{
		"interaction.start":   {result: `{"sessionId":"s1","state":"idle","initialPrompt":{"type":"text","message":"Name?"}}`},
		"interaction.respond": {then: []string{"exit"}},
	})
}

// wizardStub answers as an interactive server: capabilities, a cancel, and
// what script says; a second respond completes the session with the value
// it got. Responses from the client are read and dropped.
func wizardStub(script wizardScript) func(out *bufio.Writer, method string, id json.RawMessage) bool {
	responds := 0
	return func(out *bufio.Writer, method string, id json.RawMessage) bool {
		say := func(s string) { out.WriteString(s + "\n"); out.Flush() }
		reply := func(result string) { say(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`) }
		switch step, ok := script[method]; {
		case method == "":
		case method == "capabilities":
			reply(`{"interactive":true,"version":"0.1.0"}`)
		case method == "interaction.cancel":
			reply(`{"cancelled":true}`)
		case method == "interaction.respond" && responds > 0:
			reply(`{"accepted":true}`)
			say(`{"jsonrpc":"2.0","id":"done","method":"interaction.complete","params":{"sessionId":"s1","result":{"ok":true},"summary":"all <done>"}}`)
		case ok:
			responds += strings.Count(method, "respond")
			if step.result != "" {
				reply(step.result)
			}
			for _, line := range step.then {
				if line == "exit" {
					os.Exit(0)
				}
				say(line)
			}
		default:
			return false
		}
		return true
	}
}

func TestScriptStubWizards(t *testing.T) {
	run := func(mode string) result {
		argv, env := stubArgv(t, mode)
		answers := writeAnswers(t, "interaction: [Ada, true]\n")
		return mcpscope(t, withTarget(argv, "script", "--timeout", "20s", "--env", env, "--answers", answers, "--tool", "wizard")...)
	}
	r := run("wizard-warns")
	r.mustExit(t, ExitOK)
	expiry := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).Local().Format("15:04:05")
	if r.stdout != `{"sessionId":"s1","result":{"ok":true},"summary":"all <done>"}`+"\n" ||
		r.stderr != "interaction s1: session expires in 10 s (the session expires at "+expiry+")\ninteraction s1: one more thing\n" {
		t.Errorf("warns: stdout %q stderr %q", r.stdout, r.stderr)
	}

	r = run("wizard-illegal")
	r.mustExit(t, ExitProtocol)
	if r.stderr != "error: protocol violation: the server broke the states of interaction s1: "+
		"interaction.complete would move session s1 from idle to completed\n" || r.stdout != "" {
		t.Errorf("illegal: stderr %q stdout %q", r.stderr, r.stdout)
	}

	r = run("wizard-dies")
	r.mustExit(t, ExitConnection)
	if !strings.HasPrefix(r.stderr, "error: connection lost: ") || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
		t.Errorf("dies: stderr %q stdout %q", r.stderr, r.stdout)
	}
}
