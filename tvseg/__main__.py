import sys

from tvseg.cli import main

sys.exit(main())
