package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/wrap"
)

// newUnwrapCommand builds `mcpscope unwrap NAME`.
func newUnwrapCommand() *cobra.Command {
	var choice wrapChoice
	var force, forceAll bool
	cmd := &cobra.Command{
		Use:   "unwrap NAME",
		Short: "Restore a config entry wrap changed",
		Long: "unwrap undoes mcpscope wrap NAME. A file as wrap left it gets its original bytes back.\n" +
			"A file that changed since (the host or you edited it) keeps those changes: when the entry\n" +
			"itself is as wrap wrote it, only the entry's original text is put back; when the entry\n" +
			"changed too, nothing is written and the difference is shown. --force then writes back the\n" +
			"whole file as it was before wrap, keeping the current one beside it (FILE.unwrap-TIME);\n" +
			"while other entries of the same file are wrapped too, that would put them back as they were\n" +
			"then, so --force says so and --force-all is needed. An entry that no longer runs through\n" +
			"mcpscope proxy (put back or edited by hand) is left as it is and its backup removed. A name\n" +
			"wrapped both at the top of ~/.claude.json and in a project is unwrapped as wrap chose it: the\n" +
			"project's entry in the project's folder, the top one elsewhere.",
		Example: "  mcpscope unwrap everything\n  mcpscope unwrap github --host vscode\n  mcpscope unwrap everything --force",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUnwrap(cmd, args[0], choice, wrap.Options{Force: force || forceAll, ForceAll: forceAll})
		},
	}
	choice.flags(cmd, "unwrap")
	cmd.Flags().BoolVar(&force, "force", false, "write back the file as it was before wrap even if it changed since (the current one is kept beside it)")
	cmd.Flags().BoolVar(&forceAll, "force-all", false, "--force even when other entries of the same file are wrapped too (they go back to how they were before NAME's wrap)")
	return cmd
}

// runUnwrap finds the backup of name and restores its file.
func runUnwrap(cmd *cobra.Command, name string, choice wrapChoice, o wrap.Options) error {
	if err := choice.check(); err != nil {
		return err
	}
	env, err := configEnv()
	if err != nil {
		return err
	}
	io := streamsOf(cmd)
	b, err := chooseBackup(name, choice, env.Cwd, io)
	if err != nil {
		return err
	}
	if b == nil {
		return notWrapped(name, choice)
	}
	path := termtext.Line(homeShort(env.Home, b.Path))
	res, err := wrap.Unwrap(b, o)
	var changed *wrap.ChangedError
	var others *wrap.OthersError
	if errors.As(err, &others) {
		return usagef("%s", termtext.Line(homeShort(env.Home, others.Error())))
	}
	if errors.Is(err, wrap.ErrNotWrapped) {
		return usagef("%s", termtext.Line(homeShort(env.Home, err.Error())))
	}
	if errors.As(err, &changed) {
		for _, line := range strings.Split(strings.TrimSuffix(changed.Diff, "\n"), "\n") {
			if line != "" {
				io.diag.Println(homeShort(env.Home, line))
			}
		}
		return usagef("%s", homeShort(env.Home, changed.Error()))
	}
	if err != nil {
		return &UsageError{Err: err}
	}
	switch res.Outcome {
	case wrap.Restored:
		fmt.Fprintf(io.out, "unwrapped %s: %s is back as it was before wrap, byte for byte\n", quote(name), path)
	case wrap.WasOriginal:
		fmt.Fprintf(io.out, "%s was already as before wrap; the backup is removed\n", path)
	case wrap.EntryRestored:
		how := "the entry was as wrap wrote it"
		if res.Reformatted {
			how = "the entry held what wrap wrote, laid out anew"
		}
		fmt.Fprintf(io.out, "unwrapped %s: %s changed since wrap, and %s; only the entry's original text is back, the other changes are kept\n", quote(name), path, how)
	case wrap.AlreadyUnwrapped:
		how := "is back to its original text"
		if res.Edited {
			how = "was edited since wrap and runs its server without mcpscope proxy"
		}
		fmt.Fprintf(io.out, "%s was already unwrapped: its entry in %s %s; the file is left as it is and the backup is removed\n", quote(name), path, how)
	case wrap.Forced:
		fmt.Fprintf(io.out, "unwrapped %s: %s is back as it was before wrap (--force)\n", quote(name), path)
		if res.Kept != "" {
			fmt.Fprintf(io.out, "the file as it was is kept in %s\n", termtext.Line(homeShort(env.Home, res.Kept)))
		}
	}
	fmt.Fprintln(io.out, "restart or reload the host so that it runs the server directly again")
	return nil
}

// chooseBackup returns the one backup of name that choice allows, nil for
// none; several are a usage error listing them. Backups of one file that
// differ only by their ~/.claude.json project are chosen as wrap chose
// the entry: by the project that holds cwd.
func chooseBackup(name string, choice wrapChoice, cwd string, io streams) (*wrap.Backup, error) {
	dir, err := wrap.Dir()
	if err != nil {
		return nil, err
	}
	all, errs := wrap.Backups(dir, name)
	for _, e := range errs {
		io.diag.Println("warning: " + e.Error())
	}
	want := ""
	if choice.config != "" {
		if abs, err := filepath.Abs(choice.config); err == nil {
			want = abs
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				want = real
			}
		}
	}
	var found []*wrap.Backup
	for _, b := range all {
		if (want == "" || b.Path == want) && (choice.host == "" || string(b.Host) == choice.host) {
			found = append(found, b)
		}
	}
	if b := byProject(found, cwd); b != nil {
		return b, nil
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	var files []string
	for _, b := range found {
		f := fmt.Sprintf("%s (%s", b.Path, b.Host)
		if b.Project != "" {
			f += ", project " + b.Project
		}
		files = append(files, f+")")
	}
	return nil, usagef("%s is wrapped in %d places: %s; choose one with --config FILE or --host HOST (a project's entry: run mcpscope unwrap in the project's folder)",
		quote(name), len(found), termtext.Line(strings.Join(files, ", ")))
}

// byProject picks among backups of one file (several only when a
// ~/.claude.json has the name at its top and in projects) the one wrap
// would have chosen from cwd: the nearest project that holds cwd, else the
// file's own list. nil when the backups are of several files, or none
// fits.
func byProject(found []*wrap.Backup, cwd string) *wrap.Backup {
	if len(found) < 2 {
		return nil
	}
	var best, top *wrap.Backup
	for _, b := range found {
		if b.Path != found[0].Path || b.Host != found[0].Host {
			return nil
		}
		if b.Project == "" {
			top = b
			continue
		}
		rel, err := filepath.Rel(b.Project, cwd)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if best == nil || len(b.Project) > len(best.Project) {
			best = b
		}
	}
	if best != nil {
		return best
	}
	return top
}

// notWrapped explains an unwrap with no backup: the entry is not
// wrapped, or it runs through mcpscope proxy but no backup of it is kept.
func notWrapped(name string, choice wrapChoice) error {
	c, err := loadConfigured(choice.config)
	if err != nil {
		return err
	}
	for _, s := range c.named(name) {
		if choice.host != "" && string(s.Format) != choice.host {
			continue
		}
		src := termtext.Line(homeShort(c.env.Home, s.Source))
		if !s.Wrapped {
			return usagef("%s is not wrapped: %s runs it directly; nothing to undo", quote(name), src)
		}
		orig := listed(s).target
		return usagef("%s in %s runs through mcpscope proxy, but mcpscope keeps no backup of it (wrapped on another machine, or the backup was removed); edit the entry to run %s again",
			quote(name), src, termtext.Line(orig))
	}
	return usagef("%s is not wrapped: mcpscope keeps no backup of it, and no config file has it (mcpscope servers lists them)", quote(name))
}
