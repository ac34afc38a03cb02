from irreshape.cli import main

main()
