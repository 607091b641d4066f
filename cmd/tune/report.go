package main

import (
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/reports"
	"github.com/spf13/cobra"
)

func newReportCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Write DIR/report.html: one self-contained page with the run's config, best weights, yardstick and plots",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runReport(c, args[0])
		},
	}
}

func runReport(c *cobra.Command, dir string) error {
	r, err := reports.Load(dir)
	if err != nil {
		return usageError{err}
	}
	path := filepath.Join(dir, "report.html")
	if err := reports.WriteHTML(r, path); err != nil {
		return err
	}
	fmt.Fprintln(c.OutOrStdout(), path)
	return nil
}
