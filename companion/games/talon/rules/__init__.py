"""Talon's rules as pure functions (seed 003, design/TALON.md): the impulse chart and power curves,
a ship's counter, weapon tables with exact odds, damage to shields and hull, the Critical Damage
Table.  Pure: no web framework, no database; the action modules beside this package keep the books."""
