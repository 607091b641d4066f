// Command tune tunes the evaluation weights of board-game engines by making
// weight vectors play each other, and plays, searches and counts the games
// it knows. Run `tune help` for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/gametune/gametune/reports"
)

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := profiled(os.Getenv(cpuProfileEnv), os.Stderr, func() int {
		return execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	})
	stop()
	os.Exit(code)
}

// cpuProfileEnv names a file to write a CPU profile of the whole command
// to (for pprof, or as cmd/tune/default.pgo for profile-guided builds).
const cpuProfileEnv = "GAMETUNE_CPUPROFILE"

// profiled runs f, with a CPU profile written to path when path is not
// empty. The profile never overwrites a file: an existing path is an error.
func profiled(path string, stderr io.Writer, f func() int) int {
	if path == "" {
		return f()
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		fmt.Fprintf(stderr, "tune: %s: %v (give a new file)\n", cpuProfileEnv, err)
		return exitUsage
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintf(stderr, "tune: %s: %v\n", cpuProfileEnv, err)
		return exitError
	}
	defer pprof.StopCPUProfile()
	return f()
}

// execute runs one command line and returns the exit status: 130 when the
// run was interrupted (after finished work was saved), 2 for a usage error,
// 1 for any other error.
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	out := &reports.CheckedWriter{W: stdout}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil && out.Err != nil {
		err = fmt.Errorf("writing the results to standard output: %w", out.Err)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(stderr, "tune: interrupted")
		return exitInterrupted
	}
	fmt.Fprintln(stderr, "tune:", reports.ErrorText(err))
	var u usageError
	// cobra has no error type for an unknown command, only its message.
	if errors.As(err, &u) || strings.HasPrefix(err.Error(), "unknown command ") {
		return exitUsage
	}
	return exitError
}

// usageError marks errors in the command line itself.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }
