package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client/load"
)

// benchFlags are bench's own flags.
type benchFlags struct {
	concurrency int
	rate        float64
	duration    time.Duration
	requests    int
	recording   string
	format      string
	rateSet     bool // --rate was given: 0 is refused, not "no rate"
}

// Bench's defaults: the Inspector's --load concurrency, so that the same
// command line loads a server as hard with either; ten seconds when no
// limit is given.
const (
	defaultBenchConcurrency = 10
	defaultBenchDuration    = 10 * time.Second
	// benchProgressEvery is how often the live line is rewritten.
	benchProgressEvery = 250 * time.Millisecond
)

// newBenchCommand builds `mcpscope bench … TARGET`.
func newBenchCommand() *cobra.Command {
	f := &runFlags{}
	b := &benchFlags{}
	cmd := &cobra.Command{
		Use:   "bench [flags] (tool NAME [K=V…] | METHOD [PARAMS_JSON] | --recording FILE) TARGET",
		Short: "Load-test one call: throughput, errors by kind, latency percentiles",
		Long: "Send one call again and again, --concurrency at a time, at most --rate a second, for\n" +
			"--duration or --requests (10s when neither is given), and print the throughput, the\n" +
			"errors by kind and the latency percentiles (p50, p90, p99, max, from an HDR histogram).\n" +
			"The call is a tool with arguments typed by its schema (tool NAME K=V…), any method with\n" +
			"its PARAMS_JSON, or every request of a recording in turn (--recording FILE).\n\n" +
			"Latency runs from just before a request is sent to its answer (with --rate, from the\n" +
			"instant the schedule had the call due); only answered calls are timed (a JSON-RPC\n" +
			"error and a tool result with isError are answers, and errors). Calls an interrupt or a\n" +
			"lost connection cut off are unfinished, not errors. Questions the server asks are\n" +
			"answered from --answers, its answers of each kind used again in a loop.\n" +
			"A live line on stderr shows the run at a terminal. The summary is text at a terminal\n" +
			"and JSON when piped or with --format json. Nothing is recorded unless --record.\n\n" +
			"Exit 0 when the run completed, even with errors (they are in the summary); 1 when no\n" +
			"call succeeded; 3 when the connection was lost (the summary so far is printed).",
		Example: "  mcpscope bench tool greet name=Ada -- ./server\n" +
			"  mcpscope bench --concurrency 32 --requests 20000 tools/call '{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}}' -- ./server\n" +
			"  mcpscope bench --rate 50 --duration 1m ping https://example.com/mcp\n" +
			"  mcpscope bench --recording session.jsonl --format json -- ./server",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			positional, target, err := f.target(cmd, args)
			if err != nil {
				return err
			}
			b.rateSet = cmd.Flags().Changed("rate")
			if err := b.validate(); err != nil {
				return err
			}
			what, err := b.callOf(positional, cmd.InOrStdin())
			if err != nil {
				return err
			}
			cfg := b.config(f.maxTime)
			defer collectLess()()
			defer fewerThreads(target)()
			f.maxInFlight = cfg.Concurrency
			f.repeatAnswers = true
			wire := newWireTimes()
			f.sink = wire
			io := streamsOf(cmd)
			return f.execute(cmd.Context(), target, io, func(ctx context.Context, r *run) error {
				return b.run(ctx, r, what, cfg, wire)
			})
		},
	}
	fs := cmd.Flags()
	// bench's own --format comes first: the shared output flags step aside.
	fs.StringVar(&b.format, "format", "", "print the summary as `FORMAT`: text or json (default: text at a terminal, JSON otherwise)")
	f.register(fs)
	fs.IntVar(&b.concurrency, "concurrency", defaultBenchConcurrency, "keep at most `N` calls in flight")
	fs.Float64Var(&b.rate, "rate", 0, "start `R` calls a second, the n-th due n/R seconds in (default: as fast as they finish)")
	fs.DurationVar(&b.duration, "duration", 0, "stop starting calls after `D`; those in flight finish (default 10s when --requests is not given)")
	fs.IntVar(&b.requests, "requests", 0, "stop after starting `N` calls")
	fs.StringVar(&b.recording, "recording", "", "send every request of the recording `FILE` in turn (its handshake aside)")
	return cmd
}

// benchGCPercent is the garbage collector's target during a run: the
// heap of a run is small and bounded (two histograms, the calls in
// flight), and collecting it at the default pace costs a third of the
// client's CPU per call; a collection every 5× the live heap costs a
// fraction of that, for a few MiB more.
const benchGCPercent = 400

// collectLess sets the collector's target for a run, unless GOGC says
// otherwise, and returns what puts the previous one back.
func collectLess() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(benchGCPercent)
	return func() { debug.SetGCPercent(prev) }
}

// validate checks bench's own flags.
func (b *benchFlags) validate() error {
	switch {
	case b.concurrency <= 0:
		return usagef("--concurrency must be positive, got %d", b.concurrency)
	case b.rateSet && !(b.rate > 0) || math.IsInf(b.rate, 0):
		return usagef("--rate must be a positive, finite number of calls a second, got %g", b.rate)
	case b.duration < 0:
		return usagef("--duration must not be negative, got %s", b.duration)
	case b.requests < 0:
		return usagef("--requests must not be negative, got %d", b.requests)
	case b.format != "" && b.format != "text" && b.format != "json":
		return usagef("--format must be text or json, got %q", b.format)
	}
	return nil
}

// config is the load the flags ask for; a call is timed up to maxTime.
func (b *benchFlags) config(maxTime time.Duration) load.Config {
	cfg := load.Config{Concurrency: b.concurrency, Rate: b.rate, Duration: b.duration, Requests: b.requests, MaxLatency: maxTime}
	if cfg.Duration == 0 && cfg.Requests == 0 {
		cfg.Duration = defaultBenchDuration
	}
	return cfg
}

// run loads the session with what, prints the summary and says how the
// run ended.
func (b *benchFlags) run(ctx context.Context, r *run, what benchCall, cfg load.Config, wire *wireTimes) error {
	call, err := what.prepare(ctx, r, wire)
	if err != nil {
		return err
	}
	// A lost connection ends the run: every later call would fail at once.
	ctx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	lost := func(err error) {
		if load.Kind(err) == load.KindConnection {
			abort(connectionFailed(fmt.Errorf("bench stopped: %w", err)))
		}
	}
	var progress func(load.Snapshot)
	live := newLiveLine(r.io.diag)
	if live != nil {
		progress = live.show
	}

	snap, runErr := load.Run(ctx, cfg, func(ctx context.Context) error {
		err := call(ctx)
		lost(err)
		return err
	}, progress, benchProgressEvery)
	live.clear()
	if werr := b.print(r, what, cfg, snap); werr != nil {
		return werr
	}
	if runErr != nil {
		return runErr
	}
	if snap.Completed > 0 && snap.ErrorCount() == snap.Completed {
		return withExit(ExitRPCError, errors.New(noSuccess(snap)))
	}
	return nil
}

// print writes the summary on stdout in the format asked for.
func (b *benchFlags) print(r *run, what benchCall, cfg load.Config, snap load.Snapshot) error {
	sum := newBenchSummary(what, cfg, snap)
	asJSON := b.format == "json" || b.format == "" && !isTerminal(r.io.out)
	if asJSON {
		raw, err := json.Marshal(sum)
		if err != nil {
			return err
		}
		return writeJSON(r.io.out, raw, r.io.pretty)
	}
	return sum.writeText(r.io.out)
}
