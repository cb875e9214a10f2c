package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// newAuthCommand builds `mcpscope auth status|logout TARGET`.
func newAuthCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "The OAuth tokens mcpscope stored for servers: status, logout",
		Long: "mcpscope authorizes at a server's authorization server when the server answers 401, and\n" +
			"stores the token per issuer and resource, in the OS keyring where there is one, else in a\n" +
			"0600 file under the user's config directory. status shows what is stored; logout forgets it.",
		Args: noArgs,
	}
	cmd.AddCommand(newAuthStatusCommand(), newAuthLogoutCommand())
	return cmd
}

// authTargetFlags are the flags auth's subcommands read of a TARGET.
func authTargetFlags(cmd *cobra.Command, f *runFlags) {
	cmd.Flags().StringVar(&f.config, "config", "", "find a server NAME in this MCP config `FILE` only")
	cmd.Flags().StringVar(&f.transport, "transport", "", "the transport `NAME` of the TARGET")
}

// newAuthStatusCommand builds `mcpscope auth status [TARGET]`.
func newAuthStatusCommand() *cobra.Command {
	f := &runFlags{}
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "status [TARGET]",
		Short:   "Show the OAuth tokens stored for TARGET (every one without a TARGET)",
		Example: "  mcpscope auth status https://example.com/mcp\n  mcpscope auth status github\n  mcpscope auth status",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			store, err := tokenstore.Default()
			if err != nil {
				return withExit(ExitUsage, err)
			}
			var entries []tokenstore.Entry
			if len(args) == 0 {
				entries, err = store.List()
			} else {
				var resource string
				if resource, err = authTarget(f, cmd, args); err != nil {
					return err
				}
				entries, err = store.Find(resource)
			}
			if err != nil {
				return withExit(ExitUsage, err)
			}
			io := streamsOf(cmd)
			if asJSON {
				return writeAuthJSON(io.out, entries, io.pretty)
			}
			return writeAuthStatus(io.out, store.Where(), entries, time.Now())
		},
	}
	authTargetFlags(cmd, f)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the entries as one JSON array (no secrets)")
	return cmd
}

// newAuthLogoutCommand builds `mcpscope auth logout TARGET`.
func newAuthLogoutCommand() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:     "logout TARGET",
		Short:   "Forget the OAuth tokens stored for TARGET",
		Example: "  mcpscope auth logout https://example.com/mcp",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			resource, err := authTarget(f, cmd, args)
			if err != nil {
				return err
			}
			store, err := tokenstore.Default()
			if err != nil {
				return withExit(ExitUsage, err)
			}
			removed, err := store.Delete(resource)
			if err != nil {
				return withExit(ExitUsage, err)
			}
			io := streamsOf(cmd)
			if len(removed) == 0 {
				fmt.Fprintf(io.out, "no OAuth token stored for %s\n", termtext.Line(resource))
				return nil
			}
			for _, e := range removed {
				fmt.Fprintf(io.out, "forgot the token of %s issued by %s\n", termtext.Line(e.Resource), termtext.Line(e.Issuer))
			}
			return nil
		},
	}
	authTargetFlags(cmd, f)
	return cmd
}

// authTarget resolves the one TARGET of an auth subcommand to the
// resource its tokens are stored under.
func authTarget(f *runFlags, cmd *cobra.Command, args []string) (string, error) {
	if len(args) == 0 {
		return "", usagef("%s needs a TARGET: a server URL or NAME", cmd.CommandPath())
	}
	target, err := f.onlyTarget(cmd, args)
	if err != nil {
		return "", err
	}
	if target.URL == nil {
		return "", usagef("%s is a stdio server: OAuth applies to servers reached by URL", target.String())
	}
	if httpconf.IsUnix(target.URL) {
		return "", usagef("%s: %s", target.String(), unixNoOAuth)
	}
	resource, err := tokenstore.Canonical(authResource(target))
	if err != nil {
		return "", usagef("%s: %w", target.String(), err)
	}
	return resource, nil
}

// authView is what status shows of an entry: never a secret.
type authView struct {
	Resource     string    `json:"resource"`
	Issuer       string    `json:"issuer"`
	ClientID     string    `json:"client_id"`
	Registration string    `json:"registration,omitempty"`
	Scopes       []string  `json:"scopes,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Refreshable  bool      `json:"refreshable"`
	Saved        time.Time `json:"saved"`
}

// viewOf is the view of e.
func viewOf(e tokenstore.Entry) authView {
	return authView{Resource: e.Resource, Issuer: e.Issuer, ClientID: e.ClientID, Registration: e.Registration,
		Scopes: e.Scopes, Expiry: e.Expiry, Refreshable: e.RefreshToken != "", Saved: e.Saved}
}

// writeAuthJSON prints the entries as a JSON array, without secrets.
func writeAuthJSON(w io.Writer, entries []tokenstore.Entry, pretty bool) error {
	views := make([]authView, 0, len(entries))
	for _, e := range entries {
		views = append(views, viewOf(e))
	}
	enc := json.NewEncoder(w)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(views)
}

// writeAuthStatus prints where tokens are kept and one block per entry.
func writeAuthStatus(w io.Writer, where string, entries []tokenstore.Entry, now time.Time) error {
	fmt.Fprintf(w, "tokens are kept in %s\n", termtext.Line(where))
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "no OAuth token stored")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, e := range entries {
		v := viewOf(e)
		fmt.Fprintln(tw)
		fmt.Fprintf(tw, "resource\t%s\n", termtext.Line(v.Resource))
		fmt.Fprintf(tw, "issuer\t%s\n", termtext.Line(v.Issuer))
		fmt.Fprintf(tw, "client\t%s (%s)\n", termtext.Line(v.ClientID), orDash(v.Registration))
		fmt.Fprintf(tw, "scopes\t%s\n", orDash(termtext.Line(strings.Join(v.Scopes, " "))))
		fmt.Fprintf(tw, "token\t%s\n", tokenState(e, now))
		fmt.Fprintf(tw, "saved\t%s\n", v.Saved.Local().Format(time.DateTime))
	}
	return tw.Flush()
}

// tokenState words whether e's token is still good.
func tokenState(e tokenstore.Entry, now time.Time) string {
	refresh := "no refresh token"
	if e.RefreshToken != "" {
		refresh = "a refresh token"
	}
	switch {
	case e.AccessToken == "":
		return "none; " + refresh
	case e.Expiry.IsZero():
		return "valid, no expiry given; " + refresh
	case e.Expiry.Before(now):
		return fmt.Sprintf("expired %s ago; %s", now.Sub(e.Expiry).Round(time.Second), refresh)
	}
	return fmt.Sprintf("valid for %s; %s", e.Expiry.Sub(now).Round(time.Second), refresh)
}

// orDash is s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
