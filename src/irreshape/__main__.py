from irreshape.cli import entry

entry()
