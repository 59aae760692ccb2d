package factories

import "github.com/smokestack/smokestack/session/kit"

// rules are UI's rules pages: Fantastic Factories for someone who has
// never played it, a screen at a time. The words match the board's: a
// player who reads "research" here finds "research" on their
// Headquarters.
func rules() []kit.RulesPage { return rulesPages }

var rulesPages = []kit.RulesPage{
	{Title: "The goal", Text: `Build factories, train workers and make goods. Your score is your goods plus the prestige (★) of every building in your compound.

Each round has two phases: the market phase, when players take turns choosing one card, then the work phase, when everyone rolls their dice and works at the same time.

The end comes when someone has 12 goods or 10 buildings: the round is finished, then one more whole round is played. Most points wins; ties go to the most metal, then the most energy, then the most cards in hand, and then the win is shared.`},
	{Title: "The market phase", Text: `Players take turns, starting with the first player. On your turn you do one of two things:

Take a blueprint: one of the 4 blueprints in the marketplace goes into your hand, free.

Hire a contractor: discard a blueprint from your hand that shows the same tool as the token above the contractor (gear, wrench, hammer or shovel), pay any energy the contractor asks for, and its effect happens at once.

Once per turn, before you choose, you may pay 1 metal or 1 energy to replace the whole row of blueprints, or the whole row of contractors, with new ones.`},
	{Title: "The work phase: dice and Headquarters", Text: `Everyone rolls their dice (workers) and works at the same time; say Done when you have finished. Each die is used once.

Your Headquarters has three actions, each with 3 places for dice:
• research: any die; draw 1 blueprint.
• generate: a 1, 2 or 3; gain that much energy.
• mine: a 4, 5 or 6; gain 1 metal.

Matching bonus: a die that shows the same number as one already on that action gives 1 more (a blueprint, energy or metal); when all three dice there match, 2 more in all.

Changed your mind? u takes back your last move, and the one before, as long as they drew no card, built nothing and rolled no die (i on "Take back" says more).`},
	{Title: "Building and using cards", Text: `To build a blueprint from your hand, discard ANOTHER blueprint with the same tool and pay the metal and energy it shows. You may build as often as you can pay, but not a second card of the same name unless its text allows it.

A building can be used (activated) once per round, even the round it was built: put the dice its recipe asks for on it, pay what is left of the arrow and take what is right of it. Production buildings make goods; training buildings give you more dice.

At the end of the work phase you keep at most 12 resources (metal and energy together) and 10 cards in hand: you choose what to discard.`},
	{Title: "Solo: The Machine", Text: `Alone, you play against The Machine. It starts with 2 (easy), 3 (medium), 4 (hard) or 5 (insane) buildings and plays after your work phase:

It rolls five dice. Green chooses its card: 1 to 4 takes that blueprint from the marketplace; 5 takes the top card of the deck and clears the blueprint row; 6 takes the top card and clears the contractor row.

Then red, blue, purple and yellow each make 1 good when the die is no higher than the number of its training, production, special and utility buildings.

The Machine scores 1 per good, 1 per building and 1 more per Monument; it ends the game only by reaching 12 goods. You win with more points than The Machine: a tie is its win.`},
}
