package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Every command has the same shape (restic's cmd_forget.go): a constructor
// newXCommand(g *globalOptions) binding the flags into an xOptions struct
// (positional arguments included), and RunE calling
//
//	runX(ctx context.Context, opts xOptions, gopts globalOptions, out output) error
//
// which only wires library calls and prints.

// globalOptions are the flags every command honours.
type globalOptions struct {
	quiet bool
}

// output is where a command reads and writes: its results on Stdout, its
// progress and warnings on Stderr, a person's input (play, engine) from In.
type output struct {
	In     io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// command returns a command: use, short and long are its help (long may be
// ""), args checks its positional arguments, which are stored in order in
// into (as many as were given), and RunE calls run with the command's
// context and its streams.
func command(use, short, long string, args cobra.PositionalArgs, run func(ctx context.Context, out output) error,
	into ...*string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Long: long, Args: args,
		RunE: func(c *cobra.Command, a []string) error {
			for i, arg := range a {
				*into[i] = arg
			}
			return run(c.Context(), outputOf(c))
		}}
}

// bindJSON adds --json, which prints the command's results as JSON.
func bindJSON(c *cobra.Command, p *bool) {
	c.Flags().BoolVar(p, "json", false, "print JSON")
}

// outputOf is the command's standard streams.
func outputOf(c *cobra.Command) output {
	return output{In: c.InOrStdin(), Stdout: c.OutOrStdout(), Stderr: c.ErrOrStderr()}
}

func newRootCommand() *cobra.Command {
	var g globalOptions
	root := &cobra.Command{
		Use:   "tune",
		Short: "Tune board-game evaluation weights by making them play each other",
		Long: `tune evolves the evaluation weights of game engines (Othello, checkers, chess,
tic-tac-toe, the matches game, Kono) by playing thousands of games between weight
vectors and keeping the winners. It also counts (perft), searches, solves and plays
the games it knows.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print results only: no progress, no chatter")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see 'tune %s --help')", err, c.Name())}
	})
	root.AddCommand(
		newGamesCommand(&g),
		newPerftCommand(&g),
		newSearchCommand(&g),
		newSolveCommand(&g),
		newPlayCommand(&g),
		newRunCommand(&g),
		newResumeCommand(&g),
		newRunsCommand(&g),
		newLadderCommand(&g),
		newCompareCommand(&g),
		newShowCommand(&g),
		newExportCommand(&g),
		newLearnCommand(&g),
		newMatchCommand(&g),
		newTournamentCommand(&g),
		newPlotCommand(&g),
		newReportCommand(&g),
		newServeCommand(&g),
		newEngineCommand(&g),
		newBrokerCommand(&g),
		newWorkerCommand(&g),
	)
	for _, c := range root.Commands() {
		c.Args = wrapArgs(c.Args)
	}
	return root
}

// wrapArgs marks argument-count errors as usage errors.
func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		return nil
	}
	return func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return usageError{fmt.Errorf("%s: %w (usage: %s)", c.Name(), err, c.UseLine())}
		}
		return nil
	}
}
