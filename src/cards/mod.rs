//! Card records from the rulebook and from imported community databases; fuzzy names.
