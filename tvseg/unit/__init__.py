"""Unit-domain metrics: segmentations as masses (segment sizes in units), segeval's convention."""
