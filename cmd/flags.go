package cmd

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/render"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// sizeValue is a flag holding a size in bytes, given with or without a
// unit: 1048576, 64MiB, 64M (= 64 MB), 1.5GiB, 512 KiB.
type sizeValue struct{ n *int64 }

func (s sizeValue) Type() string { return "size" }

func (s sizeValue) String() string {
	if s.n == nil {
		return ""
	}
	return formatSize(*s.n)
}

func (s sizeValue) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s.n = n
	return nil
}

// parseSize reads a size in bytes: a number, whole or not, then a unit or
// none: B; K or KB (1000), KiB (1024), and so on by M, G, T, P and E; in
// any case, with or without a space between (64MiB, 1.5 gb, 512k).
func parseSize(v string) (int64, error) {
	v = strings.TrimSpace(v)
	i := strings.IndexFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(v)
	}
	f, err := strconv.ParseFloat(v[:i], 64)
	unit := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(v[i:])), "b")
	power := 0
	if unit != "" {
		power = strings.IndexByte("kmgtpe", unit[0]) + 1
		if unit = unit[1:]; power == 0 || unit != "" && unit != "i" {
			err = strconv.ErrSyntax
		}
	}
	if err != nil || f < 0 {
		return 0, errors.New("is not a size (examples: 65536, 64KiB, 64MiB, 1GiB)")
	}
	base := 1000.0
	if unit == "i" {
		base = 1024
	}
	n := f * math.Pow(base, float64(power))
	if n >= math.MaxInt64 {
		return 0, errors.New("is too large")
	}
	return int64(n), nil
}

// formatSize writes n with the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprint(n)
}

// binarySize is n in the largest binary unit it reaches, one decimal
// under ten ("64 KiB", "1.5 MiB").
func binarySize(n int64) string {
	f, unit := float64(n), "B"
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	if f < 10 && unit != "B" {
		return fmt.Sprintf("%.1f %s", f, unit)
	}
	return fmt.Sprintf("%.0f %s", f, unit)
}

// flagValues are the values of the flags that take one of a few, for
// validation and shell completion.
func flagValues() map[string][]string {
	agents := append([]string{"auto"}, all.Names()...)
	return map[string][]string{
		"format":   render.Formats,
		"agent":    agents,
		"color":    {"auto", "always", "never"},
		"thinking": {"summary", "full", "none"},
		"tools":    {"preview", "full", "none"},
		"ci":       {"auto", "github", "gitlab", "none"},
		"summary":  {"auto", "always", "never"},
	}
}

// registerCompletions offers the values of every flag that takes one of a
// few (bash, zsh, fish: agentfmt completion SHELL).
func registerCompletions(root *cobra.Command) {
	for name, values := range flagValues() {
		values := values
		_ = root.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		})
	}
	_ = root.RegisterFlagCompletionFunc("tee", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault
	})
	_ = root.RegisterFlagCompletionFunc("pager", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"auto", "never"}, cobra.ShellCompDirectiveNoFileComp // (or a command)
	})
}

// isCompletion reports the commands of shell completion.
func isCompletion(c *cobra.Command) bool {
	for ; c != nil; c = c.Parent() {
		switch c.Name() {
		case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd, "completion":
			return true
		}
	}
	return false
}

// envName is the environment variable that defaults a flag:
// AGENTFMT_MAX_LINE for --max-line.
func envName(flag string) string {
	return "AGENTFMT_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// skipEnv are the flags no environment variable sets: they are asked
// for, never a standing default.
var skipEnv = map[string]bool{"help": true, "version": true}

// applyEnv sets every flag the command line did not set from its
// AGENTFMT_<FLAG> variable, as gotestsum does: flags win. A bad value is a
// usage error that names the variable.
func applyEnv(env *Env, fs *pflag.FlagSet) error {
	values := flagValues()
	for _, a := range all.Agents() {
		values["agent"] = append(values["agent"], a.Aliases...)
	}
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || skipEnv[f.Name] {
			return
		}
		v, ok := lookupEnv(env, envName(f.Name))
		if !ok {
			return
		}
		if allowed, ok := values[f.Name]; ok && !slices.Contains(allowed, v) {
			err = usagef("%s=%q: want %s", envName(f.Name), v, strings.Join(allowed, ", "))
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = usagef("%s=%q %v", envName(f.Name), v, valueProblem(serr))
			return
		}
		// It came from the environment, not the command line.
		f.Changed = false
	})
	return err
}

// lookupEnv returns a variable that is set and not empty.
func lookupEnv(env *Env, k string) (string, bool) {
	v := env.getenv(k)
	return v, v != ""
}

// envHelp lists the variables for --help.
func envHelp(sets ...*pflag.FlagSet) string {
	var names []string
	seen := map[string]bool{}
	for _, fs := range sets {
		fs.VisitAll(func(f *pflag.Flag) {
			if !skipEnv[f.Name] && !f.Hidden && !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, envName(f.Name))
			}
		})
	}
	sort.Strings(names)
	var b strings.Builder
	line := "  "
	for i, n := range names {
		if i < len(names)-1 {
			n += ","
		}
		if len(line)+len(n)+1 > 78 {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = "  "
		}
		line += n + " "
	}
	b.WriteString(strings.TrimRight(line, " "))
	return b.String()
}

// exitHelp is the exit status table of --help.
const exitHelp = `The agent's run as the stream tells it, for set -o pipefail scripts:
  0    the run finished and the agent reported success
  1    the agent reported failure; with run, the agent failed without a result
  2    usage error (bad flag or value), or a FILE that could not be read
  3    the stream ended before the run did (no result, open tool calls, a cut last line)
  4    --until was given and the marker was not in the final answer
  65   --strict and the input broke the contract
  70   an internal error (a bug: please report it, with the input)
  74   a write error (a full disk), other than a closed pipe; or the --tee copy cut short
  127  run: the agent was not found (128+N: it was killed by signal N)
  129  the terminal hung up (SIGHUP); with run, the agent got it too and was waited for
  130  interrupted (SIGINT)
  131  quit (SIGQUIT)
  141  stdout was closed (| head); with --tee the input is still read to its end
  143  terminated (SIGTERM)`

// flagError is a bad flag as the user is told it: a value that does not
// parse says what it should be, not what strconv said
// (`--tool-lines: "abc" is not a whole number`).
func flagError(err error) error {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		return fmt.Errorf("--%s: %q %v", iv.GetFlag().Name, iv.GetValue(), valueProblem(err))
	}
	return err
}

// valueProblem is what is wrong with a flag's value.
func valueProblem(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return errors.Unwrap(err)
	}
	what := "is not a whole number"
	switch iv.GetFlag().Value.Type() {
	case "float32", "float64":
		what = "is not a number"
	case "bool":
		what = "is not true or false"
	}
	if errors.Is(ne.Err, strconv.ErrRange) {
		what = "is out of range"
	}
	return errors.New(what)
}
