"""Jipai 记牌: a card-counting trainer for 升级 / 80分 / 拖拉机."""

__version__ = "0.1.0"
