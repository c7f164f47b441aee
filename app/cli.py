"""TEMPORARY placeholder CLI (created by build-setup; to be replaced)."""

import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="pitdesk", description="Pai Gow Poker pit desk.")
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
