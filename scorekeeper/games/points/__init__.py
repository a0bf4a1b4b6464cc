"""Points: any game scored in points per deal (entered as each player's points), the
higher or the lower total winning; Hearts and the group's own games build on it."""
