import sys

from trainruns.cli.launch import main

sys.exit(main())
