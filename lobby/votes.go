package lobby

import "context"

// Vote casts by's vote to hand seat, whose player is away, to the game's
// default bot. When every present player has voted, the bot takes the
// seat at once.
func (l *Lobby) Vote(ctx context.Context, code string, by Player, seat int) (VoteResult, error) {
	r, err := l.room(ctx, code)
	if err != nil {
		return VoteResult{}, err
	}
	return r.Vote(ctx, by, seat)
}
