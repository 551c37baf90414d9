from tvseg.cli import run

run()
