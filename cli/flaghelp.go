package cli

import (
	"slices"
	"strings"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagGroupKey is the pflag annotation that names the heading a shared
// flag's help comes under; a flag without it is the command's own, listed
// first under "Flags:".
const flagGroupKey = "mcpscope/help-group"

// flagGroups are the headings of the flags every connecting command
// shares, in the order help shows them, with their flags.
var flagGroups = []struct {
	title string
	names []string
}{
	{"Connection flags", []string{"transport", "header", "env", "origin", "cert-hash", "insecure", "keylog", "encoding", "max-frame-size", "protocol", "config", "cwd"}},
	{"Request flags", []string{"timeout", "max-time", "answers", "root", "progress", "trace", "stream-out", "log-level", "meta", "findings"}},
	{"OAuth flags", []string{"client-id", "client-secret", "client-credentials", "client-metadata-url", "no-auth"}},
	{"Recording flags", []string{"record", "no-record", "record-stream-max", "no-redact"}},
	{"Output flags", outputFlagNames},
}

// outputFlagNames are the flags that say how a result is printed; only
// the commands that print one result take them (printsResult).
var outputFlagNames = []string{formatFlag, outputFlag, rawFlag}

// groupSharedFlags files the shared flags of fs under their headings.
func groupSharedFlags(fs *pflag.FlagSet) {
	for _, g := range flagGroups {
		for _, name := range g.names {
			if fl := fs.Lookup(name); fl != nil && (!slices.Contains(outputFlagNames, name) || sharedOutputFlag(fl)) {
				_ = fs.SetAnnotation(name, flagGroupKey, []string{g.title})
			}
		}
	}
}

// tuiOnlyFlags apply to the TUI only, headlessOnlyFlags to the headless
// commands only (the TUI refuses them with a reason); each is hidden
// where it does nothing. --log-level serves both: the TUI asks the server
// for the level at connect and shows the messages in its Log view.
var (
	tuiOnlyFlags      = []string{"no-record"}
	headlessOnlyFlags = []string{"trace", "progress", "meta", "findings"}
)

// ignoredFlags are the shared flags command does nothing with: its help
// hides them, and a headless command refuses them (refuseIgnored); the
// TUI refuses --trace and --progress itself, with its reason, and every
// other command the output flags it ignores. The doctor
// walks the layers with one tools/list: it records nothing, prints no
// trace nor progress and reads no execution stream.
func ignoredFlags(command string) []string {
	var ignored []string
	switch {
	case command == "doctor":
		ignored = append(slices.Clone(tuiOnlyFlags), "trace", "progress", "stream-out", "record", "record-stream-max", "log-level", "meta", "findings")
	case command == "stream":
		ignored = append(slices.Clone(tuiOnlyFlags), "log-level")
	case command == "bench":
		ignored = append(slices.Clone(tuiOnlyFlags), "progress", "stream-out")
	case headlessCommand(command):
		ignored = slices.Clone(tuiOnlyFlags)
	case tuiCommand(command):
		ignored = slices.Clone(headlessOnlyFlags)
	}
	return append(ignored, ignoredOutputFlags(command)...)
}

// printsResult: the command prints the result of one request, or one
// listing, which the output flags shape.
func printsResult(name string) bool {
	switch name {
	case "call", "tool", "prompt", "read", "tools", "resources", "prompts", "skills":
		return true
	}
	return false
}

// ignoredOutputFlags are the output flags command does nothing with: all
// of them where no result is printed, --raw for a listing (it holds no
// content to write).
func ignoredOutputFlags(command string) []string {
	switch {
	case !printsResult(command):
		return outputFlagNames
	case command == "tools" || command == "resources" || command == "prompts" || command == "skills":
		return []string{rawFlag}
	}
	return nil
}

// sharedOutputFlag: fl is one of the shared output flags
// (outputFlags.register), not a command's own flag of the same name
// (export's --format).
func sharedOutputFlag(fl *pflag.Flag) bool {
	_, ok := fl.Annotations[outputFlagKey]
	return ok
}

// headlessUsage is the help of the shared flags that read otherwise on a
// command that never opens the TUI.
var headlessUsage = map[string]string{
	"record": "record the session to `FILE`",
}

// refuseIgnored makes c refuse, with a usage error naming it, a flag it
// ignores, before it runs.
func refuseIgnored(c *cobra.Command, ignored []string) {
	run := c.PreRunE
	c.PreRunE = func(cmd *cobra.Command, args []string) error {
		for _, name := range ignored {
			if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
				return usagef("--%s does not apply to %s", name, cmd.CommandPath())
			}
		}
		if run != nil {
			return run(cmd, args)
		}
		return nil
	}
}

// headlessCommand: the command never opens the TUI; tuiCommand: it always
// does (replay does either).
func headlessCommand(name string) bool {
	switch name {
	case "call", "stream", "script", "tools", "resources", "prompts", "doctor", "tool", "prompt", "read", "lint", "bench":
		return true
	}
	return false
}

// tuiCommand: see headlessCommand.
func tuiCommand(name string) bool { return name == "mcpscope" || name == "demo" }

// ownFlags are the shared flags a command lists among its own, first: the
// answers file is what script runs on, the transport what demo serves.
func ownFlags(command string) []string {
	switch command {
	case "script":
		return []string{"answers"}
	case "stream":
		return []string{"stream-out", "meta"}
	case "demo":
		return []string{"transport"}
	}
	return nil
}

// arrangeFlags hides, on each command of the tree under root, the shared
// flags that do nothing there, and lists first those it calls its own.
func arrangeFlags(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		hide := slices.DeleteFunc(ignoredFlags(c.Name()), func(name string) bool {
			fl := c.Flags().Lookup(name)
			return slices.Contains(outputFlagNames, name) && (fl == nil || !sharedOutputFlag(fl))
		})
		for _, name := range hide {
			if c.Flags().Lookup(name) != nil {
				_ = c.Flags().MarkHidden(name)
			}
		}
		if headlessCommand(c.Name()) {
			refuseIgnored(c, hide)
			for name, usage := range headlessUsage {
				if fl := c.Flags().Lookup(name); fl != nil {
					fl.Usage = usage
				}
			}
		} else {
			refuseIgnored(c, slices.DeleteFunc(hide, func(name string) bool { return !slices.Contains(outputFlagNames, name) }))
		}
		for _, name := range ownFlags(c.Name()) {
			if fl := c.Flags().Lookup(name); fl != nil {
				delete(fl.Annotations, flagGroupKey)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// groupedUsageTemplate is cobra's usage template with its one list of
// flags replaced by flagHelp's.
func groupedUsageTemplate(tmpl string) string {
	return strings.Replace(tmpl, "\n\nFlags:\n{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}", "{{flagHelp .}}", 1)
}

func init() {
	cobra.AddTemplateFunc("flagHelp", flagHelp)
}

// flagHelp renders the flags of c: its own first under "Flags:", then
// each group of shared flags once under its heading.
func flagHelp(c *cobra.Command) string {
	own := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	groups := make([]*pflag.FlagSet, len(flagGroups))
	c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
		fs := own
		if g := fl.Annotations[flagGroupKey]; len(g) == 1 {
			for i := range flagGroups {
				if flagGroups[i].title == g[0] {
					if groups[i] == nil {
						groups[i] = pflag.NewFlagSet(g[0], pflag.ContinueOnError)
					}
					fs = groups[i]
				}
			}
		}
		fs.AddFlag(fl)
	})
	var b strings.Builder
	section := func(title string, fs *pflag.FlagSet) {
		if fs == nil {
			return
		}
		if usages := strings.TrimRightFunc(fs.FlagUsages(), unicode.IsSpace); usages != "" {
			b.WriteString("\n\n" + title + ":\n" + usages)
		}
	}
	section("Flags", own)
	for i, g := range flagGroups {
		section(g.title, groups[i])
	}
	return b.String()
}
