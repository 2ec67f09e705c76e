"""Signal conventions (信号牌): convention sets as data, the rules as free functions, the referee ops, the
moment detector."""
