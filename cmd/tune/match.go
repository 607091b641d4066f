package main

import (
	"context"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"github.com/spf13/cobra"
)

type matchOptions struct {
	contestOptions
	a, b, sprt string
}

func runMatch(ctx context.Context, o matchOptions, gopts globalOptions, out output) error {
	var test *stats.SPRT
	if o.sprt != "" {
		t, err := stats.ParseSPRT(o.sprt)
		if err != nil {
			return usageError{err}
		}
		test = &t
	}
	ct, err := o.prepare(ctx, []string{o.a, o.b}, out.Stderr)
	if err != nil {
		return err
	}
	defer ct.close()
	a, b := ct.players[0], ct.players[1]
	specs := tournament.MatchSpecs(ct.game, a, b, o.pairs, ct.openings, o.maxPlies, o.adjudicate)
	progress := reports.NewMatchProgress(out.Stderr, gopts.quiet, o.pairs)
	res, runErr := tournament.RunMatch(ctx, ct, specs, test, progress.Pair)
	progress.Finish()
	if runErr = ct.finish(runErr); runErr != nil && ctx.Err() == nil {
		return runErr
	}
	summary := res.JSON(ct.game.Name(), a.Name, b.Name)
	summary.Interrupted = runErr != nil
	if !o.json {
		reports.WriteMatch(out.Stdout, summary)
	} else if err := writeJSON(out.Stdout, summary); err != nil {
		return err
	}
	return runErr
}

func newMatchCommand(g *globalOptions) *cobra.Command {
	var o matchOptions
	c := command("match --game G --a SPEC --b SPEC [flags]", "Play A against B over colour-swapped pairs: W-D-L, Elo with its interval, SPRT",
		`match plays --pairs pairs of games between A and B, each pair from one opening with
colours swapped, on all cores. A SPEC is "default" (the evaluator's default weights),
"default:EVALUATOR", a weights file (JSON, as 'tune export' writes), an external
engine, or the name of one in the --engines file. A built-in SPEC may end with
settings: ",depth=D", ",nodes=N" (for --depth, --nodes), a clock the runner keeps
(",tc=[MOVES/]SECONDS[+INC]", ",st=S", ",movetime=MS"), ",search=selective" and
",param.NAME=V" (default:pst,tc=10+0.1,search=selective). An external engine is

  cmd=PATH,proto=uci|xboard|gtp[,name=N][,arg=A]...[,dir=D][,option.NAME=VALUE]...
      [,depth=D|nodes=N|movetime=MS|tc=[MOVES/]SECONDS[+INC]]
      [,restart=on|off][,timemargin=MS][,stall=MS]

(UCI or xboard for chess, GTP for Othello). The runner keeps the clocks of tc= and
movetime=; an engine over its time by more than timemargin (100ms), that crashes,
stops answering for stall (60s) or plays an illegal move loses the game, and is
restarted for the next. Its stderr goes to --engine-log.

--engines FILE is gametune's YAML list of engines or cutechess's engines.json
(whose engines carry no limit: give one with --each). --each KEY=VALUE,... is
fastchess's -each: tc=, st=, depth=, nodes=, movetime=, option.NAME=, proto=,
restart=, timemargin= and stall= for every external engine; an engine's own
setting wins (its own limit of any kind keeps --each's limit out).

With --sprt elo0,elo1[,alpha,beta] the match stops as soon as the sequential test
(pentanomial, over pairs) accepts a hypothesis. The bounds are normalized Elo, as in
fastchess and fishtest; add model=logistic for logistic Elo. fastchess's words work
too: --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized".`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runMatch(ctx, o, *g, out) })
	o.bind(c)
	c.Flags().StringVar(&o.a, "a", "default", "player A")
	c.Flags().StringVar(&o.b, "b", "default", "player B")
	c.Flags().StringVar(&o.sprt, "sprt", "", "sequential test elo0,elo1[,alpha,beta][,model=normalized|logistic] (alpha and beta default to 0.05, the model to normalized)")
	return c
}
