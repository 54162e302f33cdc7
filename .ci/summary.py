#!/usr/bin/env python3
"""Totals of the test results a .ci/run left behind, from JUnit XML: CTest's
(ctest --output-junit) and Surefire/Failsafe reports. Prints one line per glob and a final
line "N passed, N failed, N skipped"; exits 1 when a test failed or nothing was found (a CI
run that tested nothing is not green).

Per test case: <failure>/<error> (or CTest status="fail") is failed; <skipped> is skipped,
except CTest's "Unable to find executable" (a test that could not start), which is failed;
anything else ran and passed.

Usage: summary.py GLOB...
"""
import glob
import sys
import xml.etree.ElementTree as ET


def counts(path):
    passed = failed = skipped = 0
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return 0, 1, 0  # a truncated report: the process died mid-suite
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None \
                or case.get("status") == "fail":
            failed += 1
            continue
        skip = case.find("skipped")
        if skip is not None:
            if (skip.get("message") or "").startswith("Unable to find executable"):
                failed += 1
            else:
                skipped += 1
            continue
        passed += 1
    return passed, failed, skipped


def main(patterns):
    total = [0, 0, 0]
    found = False
    for pat in patterns:
        files = sorted(glob.glob(pat))
        c = [0, 0, 0]
        for f in files:
            c = [a + b for a, b in zip(c, counts(f))]
        if not files:
            print(f"{pat}: no reports")
            continue
        found = True
        print(f"{pat}: {c[0]} passed, {c[1]} failed, {c[2]} skipped ({len(files)} reports)")
        total = [a + b for a, b in zip(total, c)]
    print(f"{total[0]} passed, {total[1]} failed, {total[2]} skipped")
    return 1 if total[1] or not found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
