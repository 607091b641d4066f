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
	"syscall"
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
	defer stop()
	os.Exit(execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// execute runs one command line and returns the exit status: 130 when the
// run was interrupted (after finished work was saved), 2 for a usage error,
// 1 for any other error.
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(stderr, "tune: interrupted")
		return exitInterrupted
	}
	fmt.Fprintln(stderr, "tune:", err)
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitError
}

// usageError marks errors in the command line itself.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }
