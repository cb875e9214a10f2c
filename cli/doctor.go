package cli

import (
	"context"
	"fmt"
	"net/http"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/doctor"
	"github.com/mcpscope/mcpscope/transports/ws"
	"github.com/spf13/cobra"
)

// newDoctorCommand builds `mcpscope doctor TARGET`.
func newDoctorCommand() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "doctor [flags] TARGET",
		Short: "Walk the layers to TARGET and name the first that fails",
		Long: "Walk the layers to TARGET — the command, DNS, TCP, TLS, HTTP or the WebSocket upgrade or\n" +
			"QUIC/WebTransport, auth, the MCP handshake, one tools/list — and stop at the first that fails.\n" +
			"A unix:// target's socket file (there, a socket, writable by this user) and connection take\n" +
			"the place of DNS, TCP and TLS.\n" +
			"The handshake step says what the server/discover probe concluded (a probe refused with 400\n" +
			"or an error is the probe's outcome, not a failure), and a 4xx to the http step's ping outside\n" +
			"a session is worded as that probe's outcome.\n" +
			"Prints a checklist on stdout, the failure and its fix, and exits with the failure's code.",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := f.onlyTarget(cmd, args)
			if err != nil {
				return err
			}
			return runDoctor(cmd.Context(), f, target, streamsOf(cmd))
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// runDoctor walks the layers to target, prints the checklist on out and
// returns the first failure with its exit code.
func runDoctor(ctx context.Context, f *runFlags, target Target, io streams) error {
	plan, err := f.plan()
	if err != nil {
		return err
	}
	cfg, err := doctorConfig(plan, target)
	if err != nil {
		return err
	}
	report := doctor.Run(ctx, withStoredToken(cfg, plan, target, io.diag.Println))
	if err := report.Render(io.out, checklist.RenderOptions{}); err != nil {
		return withExit(ExitConnection, err)
	}
	failed := report.Failure()
	if failed == nil {
		return nil
	}
	return withExit(doctorExit(failed.Class), fmt.Errorf("doctor: %s failed", failed.Step))
}

// doctorConfig turns the plan's flags and the target into the walk's
// configuration; its sessions answer the server's questions as the plan
// does.
func doctorConfig(plan *connectPlan, target Target) (doctor.Config, error) {
	f := plan.flags
	topts := f.transportOptions(target)
	if target.Transport == "stdio" {
		// refused now, as every command refuses it, not as a failed step
		if err := dial.StdioRefuses(topts); err != nil {
			return doctor.Config{}, err
		}
	}
	r, err := dial.RemoteOf(topts, "")
	if err != nil {
		return doctor.Config{}, err
	}
	granted := clientGrant(f, target, topts)
	cfg := doctor.Config{
		Transport:  target.Transport,
		URL:        target.URL,
		Argv:       target.Argv,
		Timeout:    f.timeout,
		MaxTime:    f.maxTime,
		Header:     r.Header,
		Origin:     f.origin,
		CertHashes: r.CertHashes,
		Insecure:   f.insecure,
		// what the WebSocket transport of the target will offer
		Subprotocols: ws.ModeOf(target.Transport).Subprotocols(),
		Connector:    doctorConnector{plan: plan, target: target, granted: granted},
		Classify:     doctorClass,
		// the OAuth flow's own verdict on the server's challenge
		Authorization: authPreview(f, target, topts),
	}
	if granted != nil {
		cfg.Grant = granted.run
	}
	return cfg, nil
}

// withStoredToken gives the walk the OAuth token stored for target
// (refreshed when due), read now: the doctor probes with the credentials
// every command would send. say is told what the flow says of it.
func withStoredToken(cfg doctor.Config, plan *connectPlan, target Target, say func(string)) doctor.Config {
	f := plan.flags
	stored := storedAuthorization(f, target, f.transportOptions(target), say)
	if stored == "" {
		return cfg
	}
	cfg.Header = cfg.Header.Clone()
	if cfg.Header == nil {
		cfg.Header = http.Header{}
	}
	cfg.Header.Set("Authorization", stored)
	granted, _ := cfg.Connector.(doctorConnector)
	cfg.Connector = doctorConnector{plan: plan, target: target, authorization: stored, granted: granted.granted}
	return cfg
}

// doctorConnector builds the real transport and session of every command.
type doctorConnector struct {
	plan   *connectPlan
	target Target
	// authorization is the stored OAuth token's header, "" without one.
	authorization string
	// granted is the token of the client_credentials grant the walk ran,
	// when it ran one (nil without --client-credentials).
	granted *grantedToken
}

// Transport builds the target's transport, reporting frames to sink.
func (c doctorConnector) Transport(sink capture.Sink) (client.Transport, error) {
	topts := c.plan.flags.transportOptions(c.target)
	topts.Sink = sink
	authorization := c.authorization
	if h := c.granted.header(); h != "" {
		authorization = h
	}
	if authorization != "" {
		topts.Headers = append(topts.Headers, "Authorization: "+authorization)
	}
	return newTransport(c.target, topts)
}

// Session builds the session over t.
func (c doctorConnector) Session(t client.Transport) *client.Session {
	return c.plan.session(t, func(error) {})
}

// doctorClass classifies a session's error as the exit codes do.
func doctorClass(err error) checklist.Class {
	switch ExitCode(err) {
	case ExitTimeout:
		return checklist.Timeout
	case ExitProtocol:
		return checklist.Protocol
	}
	if isUsage(err) {
		return checklist.Usage
	}
	return checklist.Connection
}

// doctorExit is the exit code of a failure's class.
func doctorExit(c checklist.Class) int {
	switch c {
	case checklist.Timeout:
		return ExitTimeout
	case checklist.Protocol:
		return ExitProtocol
	case checklist.Usage:
		return ExitUsage
	}
	return ExitConnection
}
