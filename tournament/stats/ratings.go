package stats

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// PairResult is the record of player A against player B, counted from A's
// side: WDL.Wins are A's wins. Players are numbered from 0.
type PairResult struct {
	A, B int
	WDL  WDL
}

// RatingOptions are the settings of Rate. The zero value anchors player 0
// and adds the default prior of one virtual game per pair.
type RatingOptions struct {
	// Anchor is the player rated 0, e.g. the evaluator's default weights.
	Anchor int

	// PriorGames is the number of virtual games added to every pair of
	// players that played each other, scored ½ each: counted as half a win
	// and half a loss, so they pull the pair's ratings together without
	// informing the draw margin. They keep a clean sweep's rating finite.
	// 0 means the default, 1; a negative value means none: the plain
	// maximum-likelihood fit.
	//
	// BayesElo's virtual draws do not do this when the draw margin is
	// fitted: P(draw) = (10^(δ/200)-1) P(win) P(loss), so where nothing
	// else pins δ down (two players, say) a sweep plus a draw is fitted
	// best with the rating difference and δ both infinite.
	PriorGames float64
}

// Rating is one player's rating in a pool.
type Rating struct {
	Elo       float64 // relative to the anchor
	Low, High float64 // the 95% interval; both 0 for the anchor
	Games     int     // real games played, without the prior's
}

// Ratings are the ratings of a pool of players.
type Ratings struct {
	// Players holds one rating per player, in the players' order.
	Players []Rating

	// DrawElo is the fitted draw margin δ of the model: a game between
	// equal players is drawn with probability (10^(δ/400)-1)/(10^(δ/400)+1).
	// 0 when no game was drawn, the model then being plain Elo.
	DrawElo float64

	// Covariance is the asymptotic covariance of the ratings in Elo², n×n,
	// from the inverse Hessian of the negative log-likelihood at its
	// minimum (with the draw margin's uncertainty taken into account). The
	// anchor's row and column are 0.
	Covariance *mat.SymDense
}

// Difference is the rating of player i minus that of player j with its 95%
// interval, from the covariance: sqrt(C_ii + C_jj - 2 C_ij) is the standard
// error. It is narrower than the players' own intervals suggest when both
// were measured against the same opponents. It panics if i or j is not a
// player.
func (r Ratings) Difference(i, j int) (elo, low, high float64) {
	elo = r.Players[i].Elo - r.Players[j].Elo
	v := r.Covariance.At(i, i) + r.Covariance.At(j, j) - 2*r.Covariance.At(i, j)
	h := z95 * math.Sqrt(max(v, 0))
	return elo, elo - h, elo + h
}

// Errors of Rate, for errors.Is. The players that ErrDisconnected and
// ErrUnbounded concern are in an *UnratedError.
var (
	ErrTooFewPlayers  = errors.New("stats: fewer than 2 players to rate")
	ErrBadAnchor      = errors.New("stats: the anchor is not one of the players")
	ErrBadResult      = errors.New("stats: bad pair result")
	ErrBadPrior       = errors.New("stats: the prior number of games is not a finite number")
	ErrDisconnected   = errors.New("stats: players without games connecting them to the anchor")
	ErrUnbounded      = errors.New("stats: players whose rating is infinite")
	ErrNoDecisiveGame = errors.New("stats: no decisive game")
	ErrNoConvergence  = errors.New("stats: the rating fit did not converge")
)

// UnratedError names the players Rate cannot rate. Err is ErrDisconnected
// or ErrUnbounded.
type UnratedError struct {
	Players []int
	Anchor  int
	Err     error
}

func (e *UnratedError) Error() string {
	ids := make([]string, len(e.Players))
	for i, p := range e.Players {
		ids[i] = fmt.Sprint(p)
	}
	list := strings.Join(ids, ", ")
	switch e.Err {
	case ErrDisconnected:
		return fmt.Sprintf("stats: players %s have no chain of games to the anchor %d, so their ratings are undefined; play them against the pool or leave them out", list, e.Anchor)
	case ErrUnbounded:
		return fmt.Sprintf("stats: players %s won every game against the rest of the pool or lost every one, so their maximum-likelihood ratings are infinite; use a prior (PriorGames >= 0) or play more games", list)
	}
	return fmt.Sprintf("stats: players %s: %v", list, e.Err)
}

func (e *UnratedError) Unwrap() error { return e.Err }

// eloPerNatural converts the logistic model's natural unit to Elo.
var eloPerNatural = 400 / math.Ln10

// Rate fits the ratings of players 0..n-1 to their results by maximum
// likelihood, with BayesElo's draw model and no colour advantage (games
// are meant to come in colour-swapped pairs): for d = r_A - r_B and a
// draw margin δ >= 0 fitted with the ratings,
//
//	P(A wins)  = 1/(1+10^((δ-d)/400))
//	P(B wins)  = 1/(1+10^((δ+d)/400))
//	P(draw)    = 1 - P(A wins) - P(B wins)
//
// The anchor is rated 0. Each player's 95% interval is ±1.96 standard
// errors from the inverse Hessian of the negative log-likelihood. Results
// may name a pair several times and in either order; their order does
// not matter. Without any draw, δ is 0 and the model is plain Elo
// (Bradley-Terry).
//
// Rate returns ErrTooFewPlayers for n < 2, ErrBadAnchor, ErrBadResult
// (a player out of range, A == B or a negative count), ErrBadPrior, an
// *UnratedError wrapping ErrDisconnected for players not linked to the
// anchor by games, or one wrapping ErrUnbounded for players with an
// infinite rating (a clean sweep with no prior). Without a prior it also
// returns ErrNoDecisiveGame when every game was drawn, and ErrUnbounded
// when the fit runs off to infinity some other way (it does not converge,
// or a pair's difference or δ goes beyond 10,000 Elo; e.g. wins and draws
// but no loss between two players, which δ → ∞ explains best).
// ErrNoConvergence means the optimiser failed.
//
// Cost: O(len(results) + n) to aggregate; then L-BFGS (gonum's optimize)
// on n parameters, each evaluation O(p) for the p distinct pairs that
// played, typically 10 to 30 iterations; then an O(n³) Cholesky inversion
// of the Hessian. 40 players in a full round robin (780 pairs) take about
// 5 ms.
func Rate(n int, results []PairResult, opts RatingOptions) (Ratings, error) {
	if n < 2 {
		return Ratings{}, fmt.Errorf("%w (got %d)", ErrTooFewPlayers, n)
	}
	if opts.Anchor < 0 || opts.Anchor >= n {
		return Ratings{}, fmt.Errorf("%w: anchor %d, players 0-%d", ErrBadAnchor, opts.Anchor, n-1)
	}
	if math.IsNaN(opts.PriorGames) || math.IsInf(opts.PriorGames, 0) {
		return Ratings{}, fmt.Errorf("%w: %v", ErrBadPrior, opts.PriorGames)
	}
	prior := opts.PriorGames
	switch {
	case prior == 0:
		prior = 1
	case prior < 0:
		prior = 0
	}

	pairs, games, err := aggregate(n, results)
	if err != nil {
		return Ratings{}, err
	}
	if out := unreached(n, opts.Anchor, pairs, func(pairCount) (bool, bool) { return true, true }); len(out) > 0 {
		return Ratings{}, &UnratedError{Players: out, Anchor: opts.Anchor, Err: ErrDisconnected}
	}
	decisive, draws := false, false
	for i := range pairs {
		pairs[i].wins += prior / 2
		pairs[i].losses += prior / 2
		decisive = decisive || pairs[i].wins+pairs[i].losses > 0
		draws = draws || pairs[i].draws > 0
	}
	if !decisive {
		return Ratings{}, fmt.Errorf("%w: every game was drawn, so the ratings cannot be told apart", ErrNoDecisiveGame)
	}
	// Finite ratings need every player to have scored against, and
	// conceded to, the anchor's side through some chain (Zermelo's
	// condition, with draws counting both ways).
	scored := func(p pairCount) (bool, bool) {
		return p.wins+p.draws > 0, p.losses+p.draws > 0
	}
	if out := unreached(n, opts.Anchor, pairs, scored); len(out) > 0 {
		return Ratings{}, &UnratedError{Players: out, Anchor: opts.Anchor, Err: ErrUnbounded}
	}

	prob := newLadderProblem(n, opts.Anchor, pairs, draws)
	x, err := prob.minimize()
	if err != nil && prior == 0 {
		// The likelihood is convex in the ratings and η, with a finite
		// minimum whenever there is a prior: without one, a fit that does
		// not converge is one that runs off to infinity.
		return Ratings{}, fmt.Errorf("%w: the fit runs off to infinity; use a prior (PriorGames >= 0) (%w)", ErrUnbounded, err)
	}
	if err != nil {
		return Ratings{}, err
	}
	if err := prob.checkFinite(x); err != nil {
		return Ratings{}, err
	}
	cov, err := prob.covariance(x)
	if err != nil {
		return Ratings{}, err
	}

	r := Ratings{Players: make([]Rating, n), Covariance: mat.NewSymDense(n, nil)}
	for i := range n {
		r.Players[i].Games = games[i]
		k := prob.index[i]
		if k < 0 {
			continue
		}
		elo := eloPerNatural * x[k]
		h := z95 * eloPerNatural * math.Sqrt(cov.At(k, k))
		r.Players[i].Elo, r.Players[i].Low, r.Players[i].High = elo, elo-h, elo+h
		for j := range i + 1 {
			if l := prob.index[j]; l >= 0 {
				r.Covariance.SetSym(i, j, eloPerNatural*eloPerNatural*cov.At(k, l))
			}
		}
	}
	if draws {
		r.DrawElo = eloPerNatural * math.Exp(x[prob.rated])
	}
	return r, nil
}

// pairCount is the record of player a against player b (a < b) from a's
// side; wins and losses include the prior's.
type pairCount struct {
	a, b                int
	wins, draws, losses float64
}

// aggregate checks results and sums them per unordered pair, sorted by
// players so that the fit does not depend on the results' order. Pairs
// that never played are left out. games counts each player's real games.
func aggregate(n int, results []PairResult) (pairs []pairCount, games []int, err error) {
	at := make(map[[2]int]int)
	games = make([]int, n)
	for i, r := range results {
		w := r.WDL
		switch {
		case r.A < 0 || r.A >= n || r.B < 0 || r.B >= n:
			return nil, nil, fmt.Errorf("%w: result %d names players %d and %d; players are 0-%d", ErrBadResult, i, r.A, r.B, n-1)
		case r.A == r.B:
			return nil, nil, fmt.Errorf("%w: result %d has player %d against itself", ErrBadResult, i, r.A)
		case w.Wins < 0 || w.Draws < 0 || w.Losses < 0:
			return nil, nil, fmt.Errorf("%w: result %d counts %d/%d/%d wins/draws/losses; counts cannot be negative", ErrBadResult, i, w.Wins, w.Draws, w.Losses)
		case w.Games() == 0:
			continue
		}
		a, b := r.A, r.B
		if a > b {
			a, b = b, a
			w.Wins, w.Losses = w.Losses, w.Wins
		}
		k, ok := at[[2]int{a, b}]
		if !ok {
			k = len(pairs)
			at[[2]int{a, b}] = k
			pairs = append(pairs, pairCount{a: a, b: b})
		}
		pairs[k].wins += float64(w.Wins)
		pairs[k].draws += float64(w.Draws)
		pairs[k].losses += float64(w.Losses)
		games[a] += w.Games()
		games[b] += w.Games()
	}
	slices.SortFunc(pairs, func(p, q pairCount) int {
		return cmp.Or(cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b))
	})
	return pairs, games, nil
}

// unreached lists, in increasing order, the players that cannot both be
// reached from the anchor and reach it along the edges of pairs; edge says
// whether a pair links a to b and b to a.
func unreached(n, anchor int, pairs []pairCount, edge func(pairCount) (aToB, bToA bool)) []int {
	forward := make([][]int, n)
	backward := make([][]int, n)
	for _, p := range pairs {
		ab, ba := edge(p)
		if ab {
			forward[p.a] = append(forward[p.a], p.b)
			backward[p.b] = append(backward[p.b], p.a)
		}
		if ba {
			forward[p.b] = append(forward[p.b], p.a)
			backward[p.a] = append(backward[p.a], p.b)
		}
	}
	from, to := reach(anchor, forward), reach(anchor, backward)
	var out []int
	for i := range n {
		if !from[i] || !to[i] {
			out = append(out, i)
		}
	}
	return out
}

// reach marks the nodes reachable from start.
func reach(start int, next [][]int) []bool {
	seen := make([]bool, len(next))
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range next[v] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// ladderProblem is the negative log-likelihood of the ratings. Ratings are
// in the logistic model's natural unit (Elo / eloPerNatural), the draw
// margin η likewise. The parameters are the rated players' ratings
// (index maps a player to its parameter, -1 for the anchor) followed, if
// the model has draws, by η.
type ladderProblem struct {
	pairs     []pairCount // a and b are parameter indices here, -1 for the anchor
	index     []int
	rated     int  // number of rated (non-anchor) players: n-1
	drawModel bool // η is fitted; otherwise it is 0 and there is no draw
	perGame   float64
}

func newLadderProblem(n, anchor int, pairs []pairCount, drawModel bool) *ladderProblem {
	p := &ladderProblem{index: make([]int, n), rated: n - 1, drawModel: drawModel}
	for i := range n {
		switch {
		case i < anchor:
			p.index[i] = i
		case i == anchor:
			p.index[i] = -1
		default:
			p.index[i] = i - 1
		}
	}
	var total float64
	p.pairs = make([]pairCount, len(pairs))
	for i, c := range pairs {
		c.a, c.b = p.index[c.a], p.index[c.b]
		p.pairs[i] = c
		total += c.wins + c.draws + c.losses
	}
	p.perGame = 1 / total
	return p
}

// dim is the number of parameters.
func (p *ladderProblem) dim() int {
	if p.drawModel {
		return p.rated + 1
	}
	return p.rated
}

// logistic is 1/(1+e^-x).
func logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logLogistic is log(1/(1+e^-x)) without overflow.
func logLogistic(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// logExpm1 is log(e^y - 1) for y > 0 without overflow.
func logExpm1(y float64) float64 {
	if y > 1 {
		return y + math.Log1p(-math.Exp(-y))
	}
	return math.Log(math.Expm1(y))
}

// eval returns the negative log-likelihood at ratings x (length rated)
// and draw margin eta, and when grad or hess is non-nil, sets them to its
// gradient and Hessian over (x, η) (η's entries only with the draw model).
//
// With a = d-η and b = -d-η, P(win) = σ(a), P(loss) = σ(b) and
// P(draw) = (e^{2η}-1) σ(a) σ(b), so a pair with w wins, D draws and l
// losses contributes -(w+D) log σ(a) - (l+D) log σ(b) - D log(e^{2η}-1).
func (p *ladderProblem) eval(x []float64, eta float64, grad []float64, hess *mat.SymDense) float64 {
	if grad != nil {
		clear(grad)
	}
	if hess != nil {
		hess.Zero()
	}
	rating := func(k int) float64 {
		if k < 0 {
			return 0
		}
		return x[k]
	}
	var g, g1, g2 float64 // log(e^{2η}-1) and its first two derivatives
	if p.drawModel {
		em := -math.Expm1(-2 * eta) // 1 - e^{-2η}
		g = logExpm1(2 * eta)
		g1 = 2 / em
		g2 = -4 * (1 - em) / (em * em)
	}
	e := p.rated // η's index
	var nll float64
	for _, c := range p.pairs {
		d := rating(c.a) - rating(c.b)
		a, b := d-eta, -d-eta
		win, loss := c.wins+c.draws, c.losses+c.draws
		nll -= win*logLogistic(a) + loss*logLogistic(b) + c.draws*g
		if grad == nil && hess == nil {
			continue
		}
		qa, qb := logistic(-a), logistic(-b) // 1-P(win), 1-P(loss)
		gd := -win*qa + loss*qb              // ∂nll/∂d
		ge := win*qa + loss*qb - c.draws*g1  // ∂nll/∂η
		if grad != nil {
			if c.a >= 0 {
				grad[c.a] += gd
			}
			if c.b >= 0 {
				grad[c.b] -= gd
			}
			if p.drawModel {
				grad[e] += ge
			}
		}
		if hess != nil {
			u, v := win*qa*(1-qa), loss*qb*(1-qb)
			hdd, hde, hee := u+v, v-u, u+v-c.draws*g2
			addSym(hess, c.a, c.a, hdd)
			addSym(hess, c.b, c.b, hdd)
			addSym(hess, c.a, c.b, -hdd)
			if p.drawModel {
				addSym(hess, c.a, e, hde)
				addSym(hess, c.b, e, -hde)
				addSym(hess, e, e, hee)
			}
		}
	}
	return nll
}

// addSym adds v at (i, j) and (j, i) of a symmetric matrix; an entry with
// a negative index (the anchor's) is dropped.
func addSym(m *mat.SymDense, i, j int, v float64) {
	if i < 0 || j < 0 {
		return
	}
	m.SetSym(i, j, m.At(i, j)+v)
}

// objective is the negative log-likelihood per game as a function of the
// optimiser's parameters: the ratings and θ = log η, which keeps η > 0.
// grad may be nil.
func (p *ladderProblem) objective(x, grad []float64) float64 {
	eta := 0.0
	if p.drawModel {
		eta = math.Exp(x[p.rated])
	}
	nll := p.eval(x[:p.rated], eta, grad, nil)
	if math.IsNaN(nll) {
		nll = math.Inf(1)
	}
	if grad != nil {
		if p.drawModel {
			grad[p.rated] *= eta
		}
		for i := range grad {
			grad[i] *= p.perGame
		}
	}
	return nll * p.perGame
}

// gradientThreshold is the optimiser's stopping rule on the largest
// component of the per-game gradient.
const gradientThreshold = 1e-9

// minimize returns the optimiser's parameters at the minimum, starting
// from equal ratings and the draw margin that fits the overall draw rate.
func (p *ladderProblem) minimize() ([]float64, error) {
	x0 := make([]float64, p.dim())
	if p.drawModel {
		var draws, total float64
		for _, c := range p.pairs {
			draws += c.draws
			total += c.wins + c.draws + c.losses
		}
		// Equal players draw with probability (e^η-1)/(e^η+1) = f.
		f := draws / total
		x0[p.rated] = math.Log(math.Log((1 + f) / (1 - f)))
	}
	problem := optimize.Problem{
		Func: func(x []float64) float64 { return p.objective(x, nil) },
		Grad: func(grad, x []float64) { p.objective(x, grad) },
	}
	settings := &optimize.Settings{
		GradientThreshold: gradientThreshold,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-15, Iterations: 20},
		MajorIterations:   100 * (p.dim() + 10),
	}
	res, err := optimize.Minimize(problem, x0, settings, &optimize.LBFGS{})
	if res == nil {
		return nil, fmt.Errorf("%w: %v", ErrNoConvergence, err)
	}
	// A line search that can no longer make progress is success if the
	// gradient is flat to rounding.
	grad := make([]float64, len(res.X))
	p.objective(res.X, grad)
	if worst := maxAbs(grad); err != nil || res.Status != optimize.GradientThreshold {
		if worst > 1e-7 || math.IsNaN(worst) {
			return nil, fmt.Errorf("%w: %v after %d iterations, gradient %.3g (%v)", ErrNoConvergence, res.Status, res.MajorIterations, worst, err)
		}
	}
	return res.X, nil
}

// divergedElo is the rating difference within a pair, or the draw margin,
// beyond which the fit is taken to run off to infinity: a player 10,000
// Elo weaker scores once in 10^25 games.
const divergedElo = 10000

// checkFinite returns ErrUnbounded if the fit at x has a pair or the draw
// margin beyond divergedElo, where the likelihood is flat to rounding.
func (p *ladderProblem) checkFinite(x []float64) error {
	limit := divergedElo / eloPerNatural
	if p.drawModel && math.Exp(x[p.rated]) > limit {
		return fmt.Errorf("%w: the draw margin runs off to infinity (some pairs have wins and draws but no loss); use a prior (PriorGames >= 0)", ErrUnbounded)
	}
	for _, c := range p.pairs {
		var ra, rb float64
		if c.a >= 0 {
			ra = x[c.a]
		}
		if c.b >= 0 {
			rb = x[c.b]
		}
		if math.Abs(ra-rb) > limit {
			return fmt.Errorf("%w: rating differences run off to infinity; use a prior (PriorGames >= 0)", ErrUnbounded)
		}
	}
	return nil
}

func maxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		if math.IsNaN(x) {
			return x
		}
		m = max(m, math.Abs(x))
	}
	return m
}

// covariance is the inverse of the Hessian of the negative log-likelihood
// over (ratings, η) at the optimiser's parameters x, in natural units.
func (p *ladderProblem) covariance(x []float64) (*mat.SymDense, error) {
	eta := 0.0
	if p.drawModel {
		eta = math.Exp(x[p.rated])
	}
	h := mat.NewSymDense(p.dim(), nil)
	p.eval(x[:p.rated], eta, nil, h)
	var chol mat.Cholesky
	if !chol.Factorize(h) {
		return nil, fmt.Errorf("%w: the Hessian at the fit is not positive definite", ErrNoConvergence)
	}
	cov := mat.NewSymDense(p.dim(), nil)
	if err := chol.InverseTo(cov); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoConvergence, err)
	}
	return cov, nil
}
