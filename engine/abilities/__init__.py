"""The card-ability kit shared by Ophelia, Siege of Olympus and Ophidian 2350: cards as data (spec),
triggers, costs, targets and effects resolved through the decision stack (resolve), and the effects most
card games share (effects). See VOCABULARY.md and DESIGN.md "Card abilities"."""
