import sys

from trainruns.cli.main import main

sys.exit(main())
