"""The count room's file parsed in the workstation (app/workstation/count_room.py): a pure function
of the text, the floor's tables and the drop box's notes; each fault named by its line, a good file
each table's notes by value and the line that first names it; the desk's refusal of a table named
by that line."""

import pytest

from app.workstation.count_room import CountRoomError, parse, read
from app.workstation.errors import FieldsRefused

TABLES = ("T1", "T2")
NOTES = (100, 500, 1000, 2000, 5000, 10000)


def test_a_good_file_gives_each_tables_notes_and_its_first_line():
    room = parse("table,denomination,count\n\nT2,$100,3\nT1,20,5\nT2, $1.00 ,0\n", TABLES, NOTES, "room.csv")
    assert room.counts == {"T2": {10000: 3, 100: 0}, "T1": {2000: 5}}
    assert room.lines == {"T2": 3, "T1": 4} and room.cents("T2") == 30_000
    assert room.drops() == [("T2", {10000: 3, 100: 0}), ("T1", {2000: 5})]
    e = room.refusal(FieldsRefused("table T1: no closed shift", {"T1": "table T1 has no closed shift"}))
    assert isinstance(e, CountRoomError) and e.line == 4
    assert str(e) == "room.csv:4: table T1 has no closed shift; nothing written"


@pytest.mark.parametrize("text,line,why", [
    ("", None, "room.csv: empty"),
    ("table,denomination,count\n", None, "no table's count after the header"),
    ("T1,$100,1\n", 1, "the header 'table,denomination,count'"),
    ("table,denomination,count\nT1,$100\n", 2, "(3 fields), got 2"),
    ("table,denomination,count\nT9,$100,1\n", 2, "no table 'T9' on this floor (tables: T1, T2)"),
    ("table,denomination,count\nT1,a hundred,1\n", 2, "'a hundred' is not a note's value"),
    ("table,denomination,count\nT1,$25,1\n", 2, "no $25.00 note in [chips] currency"),
    ("table,denomination,count\nT1,$100,1.5\n", 2, "a whole number from 0 to"),
    ("table,denomination,count\nT1,$100,1\nT1,100.00,2\n", 3, "counted twice (line 2 and line 3)"),
])
def test_each_fault_is_named_by_its_line(text, line, why):
    with pytest.raises(CountRoomError) as e:
        parse(text, TABLES, NOTES, "room.csv")
    assert why in str(e.value) and e.value.line == line
    if line is not None:
        assert str(e.value).startswith(f"room.csv:{line}: ")


def test_a_file_that_is_not_text_is_refused_naming_it(tmp_path):
    f = tmp_path / "room.csv"
    f.write_bytes(b"table,denomination,count\n\xff\xfe\n")
    with pytest.raises(CountRoomError, match="is not UTF-8 text"):
        read(f, TABLES, NOTES)
    with pytest.raises(CountRoomError, match="cannot read the count room file"):
        read(tmp_path / "none.csv", TABLES, NOTES)
    f.write_text("table,denomination,count\nT1,$100,2\n")
    assert read(f, TABLES, NOTES).counts == {"T1": {10000: 2}}
