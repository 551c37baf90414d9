#!/usr/bin/env python
"""Generate the bundled corpus ``tvseg/data_samples/`` deterministically.

The corpus is synthetic: seven invented news shows on three channels, with a
reference topic segmentation (titled), the breath groups of the transcript,
caption files and two systems' hypotheses of different quality.  Everything
is drawn from seeded random generators, so running this script again writes
the very same bytes::

    python scripts/make_data_samples.py                 # rewrites tvseg/data_samples/
    python scripts/make_data_samples.py --out /tmp/ds   # writes elsewhere

It uses only the standard library and numpy, and formats every file itself
(it does not depend on tvseg, so the corpus can test tvseg's readers).

All times are handled as integer milliseconds and written with three decimals.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DEFAULT_SEED = 20240311
REPO = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------
# Text bank.  Reports: (title, paraphrase, place, subject, reporter,
# witnesses, headline fragments, reporter lines, witness quotes).
# ---------------------------------------------------------------------------

REPORTS = {
    "floods": dict(
        title="Flooding in the Rhône valley",
        para="Rhône valley floods: thousands evacuated",
        place="the Rhône valley",
        subject="the floods",
        reporter="Lucas Perrin",
        witnesses=["Martine Giraud", "Karim Haddad"],
        headline=["in the Rhône valley", "thousands of people evacuated as the river keeps rising"],
        lines=[
            "the water rose by almost a metre overnight",
            "entire streets are now under water",
            "the fire brigade has carried out more than two hundred rescues",
            "schools will stay closed until Thursday",
            "farmers are trying to move their animals to higher ground",
            "the river is expected to peak tomorrow morning",
            "in Valence, the quays have been closed to traffic",
        ],
        quotes=[
            "we lost everything on the ground floor",
            "I have lived here for forty years and I have never seen this",
            "the water came in so fast, we had no time",
            "we are waiting for help from the town hall",
        ],
    ),
    "pensions": dict(
        title="Pension reform: unions call a strike",
        para="Unions announce a national strike over pensions",
        place="Paris",
        subject="the pension reform",
        reporter="Camille Roussel",
        witnesses=["Patrick Lenoir", "Sandrine Morel"],
        headline=["pension reform", "the unions call a national strike for Thursday"],
        lines=[
            "all eight unions signed the joint statement",
            "the government wants to raise the retirement age to sixty-four",
            "transport, schools and refineries could be affected",
            "the last meeting at the ministry ended without agreement",
            "a march is planned from République to Nation",
            "the bill goes before the Senate next week",
        ],
        quotes=[
            "we will not give up, this reform is unfair",
            "working two more years is simply not possible in my job",
            "people are angry, and they will show it on Thursday",
        ],
    ),
    "farmers": dict(
        title="Farmers' protest reaches Paris",
        para="Farmers block the Paris ring road",
        place="the Paris ring road",
        subject="the farmers' anger",
        reporter="Antoine Lacroix",
        witnesses=["Jean-Marc Brossard", "Élodie Vasseur"],
        headline=["farmers drive their tractors", "onto the Paris ring road"],
        lines=[
            "more than three hundred tractors left at dawn",
            "traffic was slowed for several hours",
            "they are demanding fairer prices for their products",
            "the police let the convoy through without incident",
            "a delegation will be received at the ministry of agriculture",
        ],
        quotes=[
            "we work seventy hours a week and we earn nothing",
            "the supermarkets set the prices, not us",
            "we came to be heard, that is all",
        ],
    ),
    "hospitals": dict(
        title="Emergency rooms under strain",
        para="Hospitals: emergency departments overwhelmed",
        place="Besançon",
        subject="the hospital crisis",
        reporter="Inès Carpentier",
        witnesses=["Dr Hélène Faure", "Yannick Dubreuil"],
        headline=["in Besançon", "patients wait up to twelve hours in the emergency room"],
        lines=[
            "the waiting room is full from early morning",
            "some patients spend the night on a trolley",
            "a third of the nursing posts are vacant",
            "the regional health agency promises reinforcements",
            "the night shift is often covered by a single doctor",
        ],
        quotes=[
            "we are exhausted, we cannot go on like this",
            "I waited nine hours with my daughter",
            "we are asked to do more with fewer people every year",
        ],
    ),
    "fuel": dict(
        title="Fuel prices at a six-month high",
        para="Petrol and diesel prices keep climbing",
        place="Orléans",
        subject="fuel prices",
        reporter="Romain Fabre",
        witnesses=["Nathalie Ruiz", "Didier Collin"],
        headline=["fuel prices", "reach their highest level in six months"],
        lines=[
            "a litre of diesel now costs more than one euro ninety",
            "prices have risen for the fifth week in a row",
            "some drivers cross the border to fill up",
            "the government rules out a new discount at the pump",
        ],
        quotes=["I drive sixty kilometres a day for work", "every week it costs a little more"],
    ),
    "birdflu": dict(
        title="Bird flu detected in the Landes",
        para="Avian flu outbreak on Landes duck farms",
        place="the Landes",
        subject="the bird flu outbreak",
        reporter="Mathilde Ferrand",
        witnesses=["Bernard Lafitte"],
        headline=["bird flu is back", "in the duck farms of the Landes"],
        lines=[
            "two farms near Mont-de-Marsan are affected",
            "thousands of ducks will have to be culled",
            "a protection zone of three kilometres has been set up",
            "breeders fear a repeat of the crisis of two years ago",
        ],
        quotes=["it is a disaster for the whole valley", "we vaccinated, and still it came back"],
    ),
    "snow": dict(
        title="Ski resorts short of snow",
        para="Lack of snow worries the Pyrénées resorts",
        place="the Pyrénées",
        subject="the lack of snow",
        reporter="Quentin Bareil",
        witnesses=["Agnès Castaing", "Thierry Pujol"],
        headline=["in the Pyrénées", "ski resorts close early for lack of snow"],
        lines=[
            "only four slopes are open out of thirty",
            "the snow cannons cannot keep up with the mild weather",
            "seasonal workers have been sent home",
            "the resort is thinking about summer activities",
        ],
        quotes=["we had a good February and then nothing", "the mountain is changing, we have to change too"],
    ),
    "teachers": dict(
        title="Teacher shortage before the exams",
        para="Schools struggle to recruit teachers",
        place="Créteil",
        subject="the teacher shortage",
        reporter="Léa Vidal",
        witnesses=["Olivier Marchal", "Chloé Besson"],
        headline=["schools struggle", "to find enough teachers before the exams"],
        lines=[
            "in Créteil, several classes have had no maths teacher since January",
            "the education authority is hiring contract staff",
            "some are recruited after a thirty-minute interview",
            "parents have written to the minister",
        ],
        quotes=["my son has missed three months of physics", "we do our best, but we were not trained for this"],
    ),
    "strike": dict(
        title="Pension strike: a day of disruption",
        para="Strike against the pension reform disrupts transport",
        place="Paris",
        subject="the strike",
        reporter="Camille Roussel",
        witnesses=["Fatima Ouali", "Gérard Blanchet"],
        headline=["strike against the pension reform", "trains, metros and schools disrupted"],
        lines=[
            "only one train in three was running this morning",
            "the metro was almost at a standstill",
            "the unions claim more than a million marchers",
            "the police give a lower figure",
            "a new day of action could be called next week",
        ],
        quotes=[
            "I walked an hour to get to work",
            "I support the strikers, even if it is hard",
            "the government has to listen now",
        ],
    ),
    "recede": dict(
        title="The Rhône begins to recede",
        para="Floods: water levels fall along the Rhône",
        place="Valence",
        subject="the falling water",
        reporter="Lucas Perrin",
        witnesses=["Martine Giraud", "Serge Aubert"],
        headline=["along the Rhône", "the water is falling and the clean-up begins"],
        lines=[
            "the level fell by forty centimetres overnight",
            "residents are returning to assess the damage",
            "the mud is everywhere",
            "the state of natural disaster should be declared this week",
        ],
        quotes=["we will need weeks to clean everything", "at least the water is going down"],
    ),
    "rents": dict(
        title="Rents climb in big cities",
        para="Housing: rents up sharply in large cities",
        place="Bordeaux",
        subject="rising rents",
        reporter="Julie Marceau",
        witnesses=["Maxime Royer", "Anaïs Lemoine"],
        headline=["rents keep climbing", "in the big cities"],
        lines=[
            "in Bordeaux, rents rose by seven per cent in one year",
            "a studio flat now costs more than seven hundred euros",
            "students are the first to suffer",
            "rent controls apply in only a few cities",
        ],
        quotes=["I visited twenty flats before finding one", "half of my salary goes on rent"],
    ),
    "cyber": dict(
        title="Ransomware attack on a Rouen hospital",
        para="Cyberattack paralyses Rouen hospital",
        place="Rouen",
        subject="the cyberattack",
        reporter="Hugo Renaud",
        witnesses=["Dr Paul Guérin"],
        headline=["in Rouen", "a hospital paralysed by a cyberattack"],
        lines=[
            "the computer systems have been down since Sunday",
            "staff have gone back to paper files",
            "the hackers are demanding a ransom",
            "some operations have been postponed",
        ],
        quotes=["we work as we did thirty years ago", "patient safety is not at risk"],
    ),
    "budget": dict(
        title="Budget: the government announces cuts",
        para="Government unveils ten billion euros of savings",
        place="Bercy",
        subject="the budget cuts",
        reporter="Pierre-Yves Caradec",
        witnesses=["Laurence Bertin"],
        headline=["ten billion euros of savings", "announced by the government"],
        lines=[
            "every ministry will have to make an effort",
            "ecology and research are among the most affected",
            "the opposition denounces an austerity budget",
            "the deficit target remains unchanged",
        ],
        quotes=["these cuts will hit public services hard", "we had no choice given the state of the accounts"],
    ),
    "olympics": dict(
        title="Paris 2024: the Olympic security plan",
        para="Olympics: security plan for the opening ceremony",
        place="the banks of the Seine",
        subject="the Olympic security plan",
        reporter="Sarah Benoît",
        witnesses=["Commander Alain Lebrun"],
        headline=["Paris 2024", "the security plan for the opening ceremony is unveiled"],
        lines=[
            "forty-five thousand police officers will be mobilised",
            "the ceremony will take place on the Seine",
            "spectators will need a pass to reach the quays",
            "drones will be banned over the capital",
        ],
        quotes=["we are preparing for every scenario", "it is an event without precedent"],
    ),
    "heatpumps": dict(
        title="Heat pumps: sales boom",
        para="Record sales for heat pumps",
        place="Nantes",
        subject="heat pumps",
        reporter="Margaux Chevalier",
        witnesses=["Franck Ollivier"],
        headline=["heat pumps", "sales reach a record"],
        lines=[
            "one million units were sold last year",
            "state aid covers up to half of the cost",
            "installers are overbooked for months",
            "some households complain about the noise",
        ],
        quotes=["our bill has gone down by a third", "we cannot train installers fast enough"],
    ),
    # regional, Rhône-Alpes
    "lyon_saone": dict(
        title="Lyon: the Saône overflows its banks",
        para="Saône flooding in central Lyon",
        place="Lyon",
        subject="the rising Saône",
        reporter="Manon Girard",
        witnesses=["Robert Chazal", "Aline Dufour"],
        headline=["in Lyon", "the Saône overflows onto the quays"],
        lines=[
            "the lower quays have been closed since this morning",
            "river shuttles are suspended",
            "the city has set up sandbags in the old town",
            "the peak is expected tonight",
        ],
        quotes=["we have seen it before but not this high", "the shop is closed until further notice"],
    ),
    "grenoble_air": dict(
        title="Grenoble: air pollution peak",
        para="Pollution alert in the Grenoble basin",
        place="Grenoble",
        subject="the pollution peak",
        reporter="Bastien Roux",
        witnesses=["Dr Claire Montet"],
        headline=["pollution alert", "in the Grenoble basin"],
        lines=[
            "the speed limit has been lowered on the ring road",
            "public transport is free for the day",
            "wood fires are banned until Friday",
            "the cold and the lack of wind trap the fine particles",
        ],
        quotes=["children with asthma should stay indoors", "you can see the haze from the mountains"],
    ),
    "stetienne": dict(
        title="Saint-Étienne: a closed factory reopens",
        para="Saint-Étienne factory back in business",
        place="Saint-Étienne",
        subject="the factory's revival",
        reporter="Bastien Roux",
        witnesses=["Nicole Ferrer", "Samir Belkacem"],
        headline=["in Saint-Étienne", "a closed factory reopens with eighty jobs"],
        lines=[
            "the site had been empty for six years",
            "a bicycle maker has taken over the buildings",
            "eighty people have already been hired",
            "the region contributed two million euros",
        ],
        quotes=["I worked here before, I am happy to come back", "this is good news for the whole valley"],
    ),
    "drome": dict(
        title="Drôme: lavender growers worried",
        para="Drôme lavender growers fear a bad season",
        place="the Drôme",
        subject="the lavender harvest",
        reporter="Manon Girard",
        witnesses=["Gilles Arnaud"],
        headline=["in the Drôme", "lavender growers fear for the harvest"],
        lines=[
            "the winter was too mild for the plants",
            "a small insect is attacking the roots",
            "prices have fallen because of foreign competition",
        ],
        quotes=["my grandfather grew lavender here", "we need help to replant"],
    ),
    # regional, Provence
    "marseille_tram": dict(
        title="Marseille: a new tramway line",
        para="New tram line opens in Marseille",
        place="Marseille",
        subject="the new tramway",
        reporter="Yanis Ferhat",
        witnesses=["Josiane Bonnet", "Mehdi Saïdi"],
        headline=["in Marseille", "the new tramway line opens to passengers"],
        lines=[
            "the line links the old port to the northern districts",
            "trams will run every six minutes",
            "the works lasted three years",
            "local shops suffered during the construction",
        ],
        quotes=["it will change my life, I will save an hour a day", "we waited a long time for this"],
    ),
    "nimes": dict(
        title="Nîmes: the arena restored",
        para="Restoration of the Nîmes arena completed",
        place="Nîmes",
        subject="the restored arena",
        reporter="Océane Martel",
        witnesses=["Philippe Abric"],
        headline=["in Nîmes", "the Roman arena shines again after ten years of work"],
        lines=[
            "the restoration cost more than thirty million euros",
            "stone cutters replaced the damaged blocks one by one",
            "the arena will reopen for the spring festival",
        ],
        quotes=["it is two thousand years old and it will outlive us", "we worked like the Romans, by hand"],
    ),
    "avignon": dict(
        title="Avignon: festival programme unveiled",
        para="The Avignon festival reveals its line-up",
        place="Avignon",
        subject="the festival programme",
        reporter="Océane Martel",
        witnesses=["Tiago Ferreira"],
        headline=["the Avignon festival", "unveils its programme"],
        lines=[
            "forty shows are announced in the official selection",
            "the main courtyard of the palace will open with a new play",
            "ticket sales start in early June",
        ],
        quotes=["we wanted a festival open to everyone", "the city lives for these three weeks"],
    ),
    "camargue": dict(
        title="Camargue: rice growers fear salt water",
        para="Salt water threatens Camargue rice fields",
        place="the Camargue",
        subject="the salt water",
        reporter="Yanis Ferhat",
        witnesses=["Jacques Roumanille"],
        headline=["in the Camargue", "salt water threatens the rice fields"],
        lines=[
            "the sea is moving up into the delta",
            "rice needs fresh water to grow",
            "some growers have already given up part of their land",
        ],
        quotes=["in ten years there may be no more rice here", "we pump fresh water day and night"],
    ),
    "toulon": dict(
        title="Toulon: the naval base opens to the public",
        para="Toulon naval base welcomes visitors",
        place="Toulon",
        subject="the open day",
        reporter="Yanis Ferhat",
        witnesses=["Captain Estelle Ravel"],
        headline=["in Toulon", "the naval base opens its doors"],
        lines=["visitors can board a frigate", "more than ten thousand people are expected", "booking is compulsory"],
        quotes=["it is a chance to show what we do", "my son wants to join the navy now"],
    ),
}

# Interviews on set: (title, paraphrase, guest, questions, answers).
INTERVIEWS = {
    "minister": dict(
        title="Pension reform: the minister answers",
        para="Labour minister interviewed on the pension reform",
        subject="the pension reform",
        guest="Éric Morvan",
        headline=["our guest tonight", "the labour minister Éric Morvan"],
        questions=[
            "minister, good evening",
            "the unions call a strike on Thursday, will you back down",
            "why sixty-four and not sixty-three",
            "what do you say to those with physically demanding jobs",
            "will you use the special procedure to pass the bill",
        ],
        answers=[
            "good evening",
            "the reform is necessary to save our pension system",
            "we have listened to the unions for months",
            "long careers will be able to leave earlier",
            "we have made concessions on physically demanding jobs",
            "I respect the right to strike",
            "but the majority will vote for this text",
            "there is no hidden agenda",
            "the figures are clear",
        ],
    ),
    "economist": dict(
        title="Housing: an economist's view",
        para="Interview: why housing costs so much",
        subject="the housing crisis",
        guest="Sophie Lemaître",
        headline=["our guest", "the economist Sophie Lemaître on the housing crisis"],
        questions=[
            "Sophie Lemaître, good evening",
            "why are rents rising so fast",
            "does rent control work",
            "what should the government do first",
        ],
        answers=[
            "good evening",
            "we are not building enough, that is the root of the problem",
            "interest rates have doubled in two years",
            "young people can no longer buy, so they rent",
            "rent control helps, but only in the short term",
            "we need to build where people want to live",
            "and to bring empty homes back onto the market",
        ],
    ),
}

# Briefs: (title, paraphrase, lines).
BRIEFS = {
    "football": (
        "In brief: football results",
        "Football: the weekend's scores",
        [
            "in football, Paris won two nil against Lens",
            "Marseille drew at home against Nice",
            "Brest remain third in the table",
        ],
    ),
    "sncf": (
        "In brief: SNCF strike notice for Thursday",
        "Rail strike notice filed for Thursday",
        [
            "the rail unions have filed a strike notice for Thursday",
            "the SNCF expects serious disruption",
            "passengers are advised to postpone their journeys",
        ],
    ),
    "louvre": (
        "In brief: the Louvre reopens its Egyptian wing",
        "Louvre: Egyptian rooms open again",
        [
            "the Louvre reopens its Egyptian rooms tomorrow",
            "after eighteen months of renovation",
            "entry is free on the first weekend",
        ],
    ),
    "agri_show": (
        "In brief: record crowds at the agricultural show",
        "Agricultural show breaks its attendance record",
        [
            "the agricultural show closed its doors on Sunday",
            "with more than six hundred thousand visitors",
            "a record for the event",
        ],
    ),
    "paris_nice": (
        "In brief: Paris–Nice cycling race",
        "Cycling: Paris–Nice stage report",
        ["in cycling, the Paris–Nice race reached Mont Brouilly", "the Slovenian rider keeps the yellow jersey"],
    ),
    "bread": (
        "In brief: bread prices stable",
        "Bakers keep the price of bread unchanged",
        ["the price of a baguette remains stable this year", "bakers say flour prices have finally come down"],
    ),
    "montblanc": (
        "In brief: Mont Blanc tunnel closed for works",
        "Mont Blanc tunnel to close",
        [
            "the Mont Blanc tunnel will close for nine weeks in the autumn",
            "lorries will be diverted through the Fréjus tunnel",
        ],
    ),
    "oscars": (
        "In brief: the Oscars ceremony",
        "Oscars: a French film rewarded",
        [
            "at the Oscars, a French film won the prize for best screenplay",
            "the director thanked her whole team in French",
        ],
    ),
    "ligue1": (
        "In brief: Ligue 1 results",
        "Football: the Ligue 1 round-up",
        ["in Ligue 1, Monaco won three one in Lille", "Lyon are still fighting relegation"],
    ),
    "eurostar": (
        "In brief: Eurostar timetable changes",
        "Eurostar changes its timetable",
        ["Eurostar will cut two daily trains to London from April", "the company blames new border checks"],
    ),
    "notredame": (
        "In brief: Notre-Dame's new spire",
        "Notre-Dame: the spire is unveiled",
        ["the scaffolding has come down around the spire of Notre-Dame", "the cathedral is due to reopen in December"],
    ),
    "tennis": (
        "In brief: tennis in Indian Wells",
        "Tennis: French players in Indian Wells",
        ["in tennis, two French players reached the last sixteen in Indian Wells", "they will meet on Wednesday"],
    ),
    "lottery": (
        "In brief: lottery jackpot won in Brittany",
        "Lottery: a Breton player wins the jackpot",
        [
            "a player in Brittany has won the lottery jackpot",
            "seventeen million euros",
            "the winner has not yet come forward",
        ],
    ),
    "stamps": (
        "In brief: stamp prices rise",
        "Postage: the price of stamps goes up",
        ["the price of a stamp will rise by eight per cent in July", "La Poste says letter volumes keep falling"],
    ),
    "a7": (
        "In brief: A7 motorway reopened",
        "The A7 motorway reopens after the floods",
        ["the A7 motorway has reopened south of Valence", "it had been closed because of the floods"],
    ),
    "ol": (
        "In brief: Olympique Lyonnais win at home",
        "Football: Lyon win at the Groupama stadium",
        ["Olympique Lyonnais beat Rennes two one last night", "a late goal from their young striker"],
    ),
    "n7": (
        "In brief: road closures on the N7",
        "Roadworks close the N7",
        ["the N7 will be closed at night near Vienne", "for three weeks of roadworks"],
    ),
    "cablecar": (
        "In brief: Grenoble cable car reopens",
        "Grenoble's bubbles are back",
        ["the Bastille cable car in Grenoble reopens on Saturday", "after its annual maintenance"],
    ),
    "mistral": (
        "In brief: Mistral warning",
        "Strong Mistral expected",
        ["Météo-France warns of a strong Mistral tomorrow", "gusts of up to one hundred kilometres an hour"],
    ),
    "port": (
        "In brief: record traffic at the port of Marseille",
        "Marseille port: record year",
        ["the port of Marseille handled a record number of containers last year"],
    ),
    "aix_market": (
        "In brief: Aix market returns to the Cours Mirabeau",
        "Aix: the market is back on the Cours Mirabeau",
        ["the Aix-en-Provence market returns to the Cours Mirabeau", "after a year of works"],
    ),
    "ferry": (
        "In brief: Corsica ferry strike ends",
        "Ferry traffic to Corsica resumes",
        ["ferries to Corsica will sail again tomorrow", "the strike by sailors is over"],
    ),
}

ANCHOR_INTRO = [
    "let us turn now to {subject}",
    "{subject} is our next story",
    "now to {place}",
    "the report is by {reporter}",
    "{reporter} has more",
    "our correspondent {reporter}",
    "here is the situation in {place}",
    "a story we have been following closely",
]
REPORT_FILLER = [
    "here in {place} the situation has changed quickly",
    "and {subject} is on everyone's mind",
    "local officials met again this afternoon",
    "the first figures were released this morning",
    "according to the prefecture",
    "the coming days will be decisive",
    "on the ground, the mood is tense",
    "we went to meet those most affected",
    "the government says it is following {subject} closely",
    "some have been waiting for answers for weeks",
    "in {place}, people are counting the cost",
    "the experts we spoke to are cautious",
    "but the reality is more complicated",
    "a meeting is planned on Thursday",
    "so far, no solution has been found",
    "and that is not all",
    "a little further on, the same worry",
    "this evening, the uncertainty remains",
    "for many here, it is a question of survival",
    "it is not the first time",
    "the mayor has asked for help from the state",
    "the opposition is calling for an inquiry",
    "a decision is expected by the end of the week",
    "the question will be on the table at the next council",
    "others are more optimistic",
    "we asked the ministry, which did not reply",
    "in {place}, the debate is only beginning",
    "the figures vary from one source to another",
    "the authorities are calling for calm",
    "we will of course follow {subject} in our next editions",
    "a collective has been set up",
    "a petition has already gathered thousands of signatures",
    "the trend has been clear for several months",
    "behind the numbers, there are families",
    "the ministry promises an answer soon",
    "the unions are watching closely",
    "for now, everyone is waiting",
    "at the town hall, a crisis unit has been set up",
]
WITNESS_FILLER = [
    "honestly, I don't know",
    "we are worried, of course",
    "nobody told us anything",
    "it has been very hard",
    "we will see",
    "we just want to be heard",
    "it's our whole life here",
    "we expected more",
    "you have to come and see it to believe it",
    "I hope it will get better",
]
SIGN_OFF = ["{reporter}, in {place}, for {programme}", "{reporter} reporting from {place}", "a report by {reporter}"]
BRIEF_OPEN = ["now the news in brief", "briefly now", "in other news"]
BRIEF_FILLER = ["more details on our website", "we will come back to it", "that was the news in brief"]
HEADLINE_OPEN = ["good evening and welcome to {programme}", "good evening", "here are the headlines"]
HEADLINE_MORE = ["also in this edition", "and all the rest of the news", "also in the news", "and then"]
WEATHER = [
    "now the weather, with {presenter}",
    "tomorrow, rain will spread across {region}",
    "temperatures between {t1} and {t2} degrees",
    "in {region}, the sun will be back in the afternoon",
    "watch out for fog in the morning in {region}",
    "the wind will pick up on the coast",
    "a storm warning is in force for {region}",
    "a cooler day on {day}",
    "highs of {t2} degrees in {region}",
    "the weekend looks milder",
    "showers on the mountains",
    "a few bright spells in {region}",
]
REGIONS = [
    "Brittany",
    "Normandy",
    "the Rhône valley",
    "Provence",
    "the Alps",
    "Alsace",
    "the south-west",
    "Île-de-France",
    "the Massif Central",
    "Corsica",
]
DAYS = ["Wednesday", "Thursday", "Friday", "the weekend"]
CLOSING = [
    "that is all for this edition",
    "thank you for watching",
    "the news continues on {channel}",
    "good night and see you tomorrow",
    "see you tomorrow for {programme}",
    "stay with us, the programme continues",
]

# ---------------------------------------------------------------------------
# Shows.  A plan is a list of (kind, key or value).
# ---------------------------------------------------------------------------

SHOWS = [
    dict(
        show="fr2_journal20h_2024-03-11",
        channel="France 2",
        programme="Journal de 20h",
        date="2024-03-11",
        anchor="Claire Dumont",
        presenter="Hélène Vasseur",
        report=(110, 230),
        plan=[
            ("headlines", "Headlines"),
            ("report", "floods"),
            ("report", "pensions"),
            ("interview", "minister"),
            ("report", "farmers"),
            ("report", "hospitals"),
            ("brief", "football"),
            ("brief", "sncf"),
            ("brief", "louvre"),
            ("brief", "agri_show"),
            ("report", "birdflu"),
            ("report", "snow"),
            ("weather", "Weather"),
            ("closing", "End of the programme"),
        ],
    ),
    dict(
        show="fr2_journal13h_2024-03-12",
        channel="France 2",
        programme="Journal de 13h",
        date="2024-03-12",
        anchor="Julien Marchand",
        presenter="Hélène Vasseur",
        report=(100, 210),
        plan=[
            ("headlines", "Headlines"),
            ("report", "strike"),
            ("report", "recede"),
            ("report", "rents"),
            ("brief", "ligue1"),
            ("brief", "eurostar"),
            ("brief", "notredame"),
            ("report", "cyber"),
            ("report", "heatpumps"),
            ("brief", "tennis"),
            ("brief", "lottery"),
            ("report", "olympics"),
            ("weather", "Weather: storm warning in Brittany"),
            ("closing", "End of the programme"),
        ],
    ),
    dict(
        show="fr3_rhonealpes1920_2024-03-11",
        channel="France 3 Rhône-Alpes",
        programme="Le 19/20 Rhône-Alpes",
        date="2024-03-11",
        anchor="Sandrine Chabert",
        presenter="Nicolas Brun",
        report=(110, 190),
        plan=[
            ("headlines", "Headlines"),
            ("report", "lyon_saone"),
            ("report", "floods"),
            ("report", "grenoble_air"),
            ("brief", "ol"),
            ("brief", "n7"),
            ("brief", "cablecar"),
            ("report", "stetienne"),
            ("report", "drome"),
            ("weather", "Regional weather"),
            ("closing", "Goodbye"),
        ],
    ),
    dict(
        show="fr3_provence1213_2024-03-12",
        channel="France 3 Provence-Alpes",
        programme="Le 12/13 Provence-Alpes",
        date="2024-03-12",
        anchor="Thomas Aubanel",
        presenter="Nicolas Brun",
        report=(95, 170),
        plan=[
            ("headlines", "Headlines"),
            ("report", "marseille_tram"),
            ("brief", "mistral"),
            ("brief", "port"),
            ("report", "nimes"),
            ("report", "avignon"),
            ("report", "camargue"),
            ("brief", "aix_market"),
            ("brief", "ferry"),
            ("report", "toulon"),
            ("weather", "Regional weather"),
            ("closing", "Goodbye"),
        ],
    ),
    dict(
        show="finfo_journal18h_2024-03-11",
        channel="franceinfo",
        programme="Le journal de 18h",
        date="2024-03-11",
        anchor="Zoé Lambert",
        presenter="Marc Olivier",
        report=(90, 180),
        plan=[
            ("headlines", "Headlines"),
            ("report", "pensions"),
            ("report", "floods"),
            ("report", "fuel"),
            ("brief", "paris_nice"),
            ("brief", "bread"),
            ("brief", "montblanc"),
            ("brief", "oscars"),
            ("gap", (100, 150)),
            ("report", "teachers"),
            ("report", "farmers"),
            ("weather", "Weather"),
            ("closing", "Coming up next"),
        ],
    ),
    dict(
        show="finfo_journal18h_2024-03-12",
        channel="franceinfo",
        programme="Le journal de 18h",
        date="2024-03-12",
        anchor="Zoé Lambert",
        presenter="Marc Olivier",
        report=(90, 180),
        plan=[
            ("headlines", "Headlines"),
            ("report", "budget"),
            ("report", "strike"),
            ("brief", "stamps"),
            ("brief", "a7"),
            ("brief", "tennis"),
            ("report", "cyber"),
            ("gap", (100, 150)),
            ("report", "olympics"),
            ("interview", "economist"),
            ("weather", "Weather"),
            ("closing", "Coming up next"),
        ],
    ),
    dict(
        show="finfo_nuit_2024-03-12",
        channel="franceinfo",
        programme="Le journal de la nuit",
        date="2024-03-12",
        anchor="Farid Mansouri",
        presenter="Marc Olivier",
        report=(110, 200),
        plan=[
            ("headlines", "Headlines"),
            ("report", "strike"),
            ("report", "recede"),
            ("brief", "ligue1"),
            ("brief", "lottery"),
            ("brief", "notredame"),
            ("brief", "eurostar"),
            ("brief", "stamps"),
            ("report", "budget"),
            ("gap", (20, 35)),
            ("weather", "Weather"),
            ("closing", "Goodbye"),
        ],
    ),
]

# Shows that also get caption files (units), and in which format.
CAPTIONS = {
    "fr2_journal20h_2024-03-11": "srt",
    "fr3_rhonealpes1920_2024-03-11": "srt",
    "finfo_journal18h_2024-03-12": "vtt",
}

SPEECH_MS_PER_WORD = 370


# ---------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------


@dataclass
class BreathGroup:
    start: int
    end: int
    text: str
    speaker: str
    topic: str


@dataclass
class Segment:
    start: int
    end: int
    title: str
    kind: str


@dataclass
class Show:
    spec: dict
    segments: list[Segment] = field(default_factory=list)
    groups: list[BreathGroup] = field(default_factory=list)
    system_a: list[Segment] = field(default_factory=list)
    system_b: list[Segment] = field(default_factory=list)
    annotator_b: list[Segment] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec["show"]


class Cycle:
    """Draw items from a list in shuffled order, reshuffling when exhausted."""

    def __init__(self, items, rng):
        self.items, self.rng, self.order = list(items), rng, []

    def draw(self):
        if not self.order:
            self.order = list(self.rng.permutation(len(self.items)))
        return self.items[self.order.pop()]


# ---------------------------------------------------------------------------
# Reference and breath groups
# ---------------------------------------------------------------------------


class SegmentWriter:
    """Appends breath groups one after the other for one show."""

    def __init__(self, show: Show, rng):
        self.show, self.rng = show, rng
        self.time = int(rng.integers(2000, 9000))

    def say(self, text: str, speaker: str, topic: str) -> None:
        words = len(text.split())
        duration = words * SPEECH_MS_PER_WORD + int(self.rng.integers(-250, 400))
        duration = int(np.clip(duration, 1000, 6000))
        self.show.groups.append(BreathGroup(self.time, self.time + duration, text, speaker, topic))
        self.time += duration

    def elapsed_since(self, start: int) -> int:
        return self.time - start


def _fill(template: str, values: dict) -> str:
    return template.format(**values)


def _build_reference(show: Show, rng) -> None:
    spec = show.spec
    writer = SegmentWriter(show, rng)
    anchor, programme = spec["anchor"], spec["programme"]
    plan = spec["plan"]
    for position, (kind, key) in enumerate(plan):
        if kind == "gap":
            writer.time += int(rng.integers(key[0] * 1000, key[1] * 1000))
            continue
        start = writer.time
        if kind == "headlines":
            title = key
            target = int(rng.integers(44000, 56000))
            values = dict(programme=programme)
            writer.say(_fill(HEADLINE_OPEN[int(rng.integers(0, 2))], values), anchor, title)
            stories = [REPORTS.get(k) or INTERVIEWS.get(k) for kd, k in plan if kd in ("report", "interview")]
            teasers = [BRIEFS[k][2][0] for kd, k in plan if kd == "brief"]
            for story in stories:
                for fragment in story["headline"]:
                    writer.say(fragment, anchor, title)
                if "lines" in story and rng.random() < 0.5:
                    writer.say(story["lines"][int(rng.integers(0, len(story["lines"])))], anchor, title)
                if writer.elapsed_since(start) >= target:
                    break
            more = Cycle(HEADLINE_MORE, rng)
            while writer.elapsed_since(start) < target:
                writer.say(more.draw(), anchor, title)
                if teasers:
                    writer.say(teasers.pop(0), anchor, title)
        elif kind == "report":
            story = REPORTS[key]
            title = story["title"]
            values = dict(story, programme=programme)
            target = int(rng.integers(spec["report"][0] * 1000, spec["report"][1] * 1000))
            intro = Cycle(ANCHOR_INTRO, rng)
            for _ in range(int(rng.integers(1, 4))):
                writer.say(_fill(intro.draw(), values), anchor, title)
            lines = Cycle(story["lines"] * 2 + REPORT_FILLER, rng)
            quotes = Cycle(story["quotes"] * 2 + WITNESS_FILLER, rng)
            witnesses = Cycle(story["witnesses"], rng)
            while writer.elapsed_since(start) < target - 4000:
                if rng.random() < 0.1:
                    witness = witnesses.draw()
                    for _ in range(int(rng.integers(1, 4))):
                        writer.say(quotes.draw(), witness, title)
                else:
                    writer.say(_fill(lines.draw(), values), story["reporter"], title)
            writer.say(_fill(SIGN_OFF[int(rng.integers(0, len(SIGN_OFF)))], values), story["reporter"], title)
        elif kind == "interview":
            story = INTERVIEWS[key]
            title = story["title"]
            target = int(rng.integers(150000, 240000))
            questions, answers = Cycle(story["questions"][1:], rng), Cycle(story["answers"][1:], rng)
            writer.say(story["questions"][0], anchor, title)
            writer.say(story["answers"][0], story["guest"], title)
            while writer.elapsed_since(start) < target:
                writer.say(questions.draw(), anchor, title)
                for _ in range(int(rng.integers(2, 6))):
                    writer.say(answers.draw(), story["guest"], title)
            writer.say("thank you for being with us", anchor, title)
        elif kind == "brief":
            title, _, lines = BRIEFS[key]
            target = int(rng.integers(11000, 22000))
            if plan[position - 1][0] != "brief":
                writer.say(BRIEF_OPEN[int(rng.integers(0, len(BRIEF_OPEN)))], anchor, title)
            filler = Cycle(BRIEF_FILLER, rng)
            for line in lines:
                writer.say(line, anchor, title)
            while writer.elapsed_since(start) < target:
                writer.say(filler.draw(), anchor, title)
        elif kind == "weather":
            title = key
            target = int(rng.integers(50000, 80000))
            writer.say(WEATHER[0].format(presenter=spec["presenter"]), anchor, title)
            bank = Cycle(WEATHER[1:], rng)
            while writer.elapsed_since(start) < target:
                t1 = int(rng.integers(2, 10))
                text = bank.draw().format(
                    region=REGIONS[int(rng.integers(0, len(REGIONS)))],
                    t1=t1,
                    t2=t1 + int(rng.integers(4, 9)),
                    day=DAYS[int(rng.integers(0, len(DAYS)))],
                )
                writer.say(text, spec["presenter"], title)
        elif kind == "closing":
            title = key
            values = dict(programme=programme, channel=spec["channel"])
            target = int(rng.integers(10000, 20000))
            bank = Cycle(CLOSING, rng)
            while writer.elapsed_since(start) < target:
                writer.say(_fill(bank.draw(), values), anchor, title)
        else:  # pragma: no cover - a typo in SHOWS
            raise ValueError(kind)
        show.segments.append(Segment(start, writer.time, title, kind))


# ---------------------------------------------------------------------------
# Hypotheses: boundaries moved along breath-group edges
# ---------------------------------------------------------------------------


def _blocks(show: Show) -> list[list[int]]:
    """Indices of reference segments grouped in runs without gaps between them."""
    blocks, current = [], [0]
    for i in range(1, len(show.segments)):
        if show.segments[i].start == show.segments[i - 1].end:
            current.append(i)
        else:
            blocks.append(current)
            current = [i]
    blocks.append(current)
    return blocks


def _shift(rng, probabilities) -> int:
    """A shift in breath groups: magnitude drawn from `probabilities`, random sign."""
    magnitude = int(rng.choice(len(probabilities), p=probabilities))
    return magnitude * (1 if rng.random() < 0.5 else -1)


def _case_variant(title: str, rng) -> str:
    choice = int(rng.integers(0, 3))
    if choice == 0:
        return title.lower()
    if choice == 1:
        return title.replace(":", " -") if ":" in title else title + "."
    return title.upper() if len(title) < 20 else title.replace(":", "")


def _hypothesis(
    show: Show, rng, *, missed, inserted, shift_p, offgrid_p, merge_runs, split_long, title_p
) -> list[Segment]:
    """Perturb the reference of `show` into a hypothesis.

    Boundaries live on breath-group edges; each is moved by a few groups
    (magnitudes drawn from `shift_p`), some are dropped and some added.
    `missed` and `inserted` are the per-show counts to draw from: short
    segments merged into a neighbour, boundaries inserted in a long report.
    `merge_runs` is the probability of dropping a boundary between two briefs,
    `split_long` that of splitting a long report.  Gaps stay gaps.
    """
    segments = show.segments
    edges = sorted({g.start for g in show.groups} | {g.end for g in show.groups})
    edge_index = {t: i for i, t in enumerate(edges)}
    blocks = _blocks(show)
    # a boundary is named by the index of the segment that starts at it
    internal = {i for block in blocks for i in block[1:]}
    shorts = [i for i, x in enumerate(segments) if x.end - x.start < 30000 and (i in internal or i + 1 in internal)]
    dropped = set()
    for i in rng.permutation(shorts)[: int(rng.choice(missed))]:
        sides = [b for b in (int(i), int(i) + 1) if b in internal]
        dropped.add(sides[int(rng.integers(0, len(sides)))])
    longs = [i for i, x in enumerate(segments) if x.kind == "report" and x.end - x.start > 120000]
    to_insert = {int(i) for i in rng.permutation(longs)[: int(rng.choice(inserted))]}
    hyp = []
    for block in blocks:
        # cut positions as indices into `edges`, the block's two ends included;
        # cuts[j] ends segment block[j - 1] and starts segment block[j]
        cuts = [edge_index[segments[block[0]].start]] + [edge_index[segments[i].end] for i in block]
        new_cuts = [cuts[0]]
        for j, i in enumerate(block):
            seg = segments[i]
            lo, hi = edge_index[seg.start], edge_index[seg.end]
            middle = (lo + (hi - lo) // 3, hi - (hi - lo) // 3)
            if i in to_insert or (seg.kind == "report" and seg.end - seg.start > 130000 and rng.random() < split_long):
                new_cuts.append(int(rng.integers(*middle)))
            if j + 1 == len(block):
                new_cuts.append(cuts[-1])
                break
            following = segments[block[j + 1]]
            if block[j + 1] in dropped or (seg.kind == following.kind == "brief" and rng.random() < merge_runs):
                continue
            new_cuts.append(cuts[j + 1] + _shift(rng, shift_p))
        # keep the cuts ordered with at least one breath group between them
        first, last = new_cuts[0], new_cuts[-1]
        fixed = [first]
        for cut in sorted(new_cuts[1:-1]):
            fixed.append(max(cut, fixed[-1] + 1))
        while len(fixed) > 1 and fixed[-1] >= last:
            fixed.pop()
        fixed.append(last)
        times = [edges[c] for c in fixed]
        for j in range(1, len(times) - 1):
            if rng.random() < offgrid_p:
                room = min(min(times[j] - times[j - 1], times[j + 1] - times[j]) // 3, 2500)
                times[j] += int(rng.integers(-room, room + 1))
        for a, b in zip(times[:-1], times[1:]):
            hyp.append(Segment(a, b, "", ""))
    _title(show, hyp, rng, title_p)
    return hyp


def _title(show: Show, hyp: list[Segment], rng, p) -> None:
    """Title each hypothesis segment after the reference segment it overlaps most."""
    paraphrase = {s["title"]: s["para"] for s in list(REPORTS.values()) + list(INTERVIEWS.values())}
    paraphrase.update({t: para for t, para, _ in BRIEFS.values()})
    titles = [s.title for s in show.segments]
    previous = None
    for h in hyp:
        overlaps = [max(0, min(h.end, r.end) - max(h.start, r.start)) for r in show.segments]
        best = show.segments[int(np.argmax(overlaps))]
        covered = sum(1 for o, r in zip(overlaps, show.segments) if o > 0.5 * (r.end - r.start))
        title = best.title
        u = rng.random()
        if best.kind == "brief" and covered > 1:
            title = "In brief"
        elif u < p["case"]:
            title = _case_variant(title, rng)
        elif u < p["case"] + p["para"]:
            title = paraphrase.get(title, title.lower())
        elif u < p["case"] + p["para"] + p["wrong"]:
            title = titles[int(rng.integers(0, len(titles)))]
        elif u < p["case"] + p["para"] + p["wrong"] + p["na"]:
            title = "<NA>"
        if title == previous and title != "<NA>":
            title = paraphrase.get(title, title + " (continued)")
            if title == previous:
                title += " (continued)"
        h.title = previous = title


SYSTEM_A = dict(
    missed=(0, 1, 1, 2),
    inserted=(0, 1, 1),
    shift_p=[0.46, 0.34, 0.12, 0.05, 0.03],
    offgrid_p=0.08,
    merge_runs=0.0,
    split_long=0.0,
    title_p=dict(case=0.15, para=0.12, wrong=0.0, na=0.12),
)
SYSTEM_B = dict(
    missed=(1, 2, 3),
    inserted=(0,),
    shift_p=[0.05, 0.15, 0.25, 0.25, 0.15, 0.10, 0.05],
    offgrid_p=0.35,
    merge_runs=0.70,
    split_long=0.70,
    title_p=dict(case=0.15, para=0.25, wrong=0.12, na=0.0),
)
ANNOTATOR_B = dict(
    missed=(0, 0, 1),
    inserted=(0, 0, 1),
    shift_p=[0.70, 0.25, 0.05],
    offgrid_p=0.0,
    merge_runs=0.15,
    split_long=0.05,
    title_p=dict(case=0.10, para=0.30, wrong=0.0, na=0.0),
)
"""A second annotator of the reference: a person who places most boundaries within a breath group or two
of the first's, groups a run of briefs now and then, and words some titles differently."""


def build_corpus(seed: int = DEFAULT_SEED) -> list[Show]:
    shows = []
    for index, spec in enumerate(SHOWS):
        show = Show(spec)
        _build_reference(show, np.random.default_rng([seed, index, 0]))
        show.system_a = _hypothesis(show, np.random.default_rng([seed, index, 1]), **SYSTEM_A)
        show.system_b = _hypothesis(show, np.random.default_rng([seed, index, 2]), **SYSTEM_B)
        show.annotator_b = _hypothesis(show, np.random.default_rng([seed, index, 3]), **ANNOTATOR_B)
        _check(show)
        shows.append(show)
    return shows


def _check(show: Show) -> None:
    """The corpus specification, asserted while generating."""
    seg = show.segments
    extent = seg[-1].end - seg[0].start
    assert 600000 <= extent <= 1800000, (show.name, extent)
    assert 8 <= len(seg) <= 25, (show.name, len(seg))
    assert len({s.title for s in seg}) == len(seg), show.name
    for a, b in zip(seg[:-1], seg[1:]):
        assert a.start < a.end <= b.start
    for g in show.groups:
        assert 1000 <= g.end - g.start <= 6000
    for hyp in (show.system_a, show.system_b):
        assert hyp[0].start == seg[0].start and hyp[-1].end == seg[-1].end
        for a, b in zip(hyp[:-1], hyp[1:]):
            assert a.start < a.end <= b.start and b.start < b.end


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------


def seconds(ms: int) -> str:
    return f"{ms // 1000}.{ms % 1000:03d}"


def clock(ms: int, separator: str = ".") -> str:
    hours, rest = divmod(ms, 3600000)
    minutes, rest = divmod(rest, 60000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"


def rttm_name(title: str) -> str:
    return "<NA>" if not title or title == "<NA>" else title.replace(" ", "_")


def rttm_lines(show: str, segments) -> list[str]:
    return [
        f"SEGMENT {show} 1 {seconds(s.start)} {seconds(s.end - s.start)} <NA> <NA> {rttm_name(s.title)} <NA> <NA>\n"
        for s in segments
    ]


def vtt_chapters(segments, *, numbered: bool) -> str:
    out = ["WEBVTT\n"]
    for i, s in enumerate(segments, 1):
        out.append("\n" + (f"{i}\n" if numbered else "") + f"{clock(s.start)} --> {clock(s.end)}\n{s.title}\n")
    return "".join(out)


def asr_text(text: str) -> str:
    """Breath-group text as a speech recogniser gives it: lower case, no punctuation."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w'’\- ]", " ", text.lower())).strip()


def caption_cues(groups: list[BreathGroup]) -> list[tuple[int, int, str, str]]:
    """Caption cues from breath groups: long groups are split in two at a word boundary."""
    cues = []
    for g in groups:
        words = g.text.split()
        if g.end - g.start > 4500 and len(words) >= 6:
            half = len(words) // 2
            first, second = " ".join(words[:half]), " ".join(words[half:])
            middle = g.start + (g.end - g.start) * len(first) // (len(first) + len(second) + 1)
            cues += [(g.start, middle, first, g.speaker), (middle, g.end, second, g.speaker)]
        else:
            cues.append((g.start, g.end, g.text, g.speaker))
    return [(a, b, _caption_case(t), s) for a, b, t, s in cues]


def _caption_case(text: str) -> str:
    text = text[0].upper() + text[1:]
    return "\n".join(textwrap.wrap(text, width=40)) or text


def srt_captions(groups) -> str:
    return "\n".join(
        f"{i}\n{clock(a, ',')} --> {clock(b, ',')}\n{t}\n" for i, (a, b, t, _) in enumerate(caption_cues(groups), 1)
    )


def vtt_captions(groups) -> str:
    cues = [f"{clock(a)} --> {clock(b)}\n<v {s}>{t}\n" for a, b, t, s in caption_cues(groups)]
    return "WEBVTT\n\n" + "\n".join(cues)


def csv_text(header, rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def corpus_files(shows: list[Show]) -> dict[str, str]:
    """Every file of the corpus, as {relative path: text}."""
    files = {}
    files["metadata.csv"] = csv_text(
        ["show", "channel", "programme", "date"],
        [[s.name, s.spec["channel"], s.spec["programme"], s.spec["date"]] for s in shows],
    )
    files["corpus.uem"] = "".join(
        f"{s.name} 1 {seconds(s.segments[0].start)} {seconds(s.segments[-1].end)}\n" for s in shows
    )
    for s in shows:
        files[f"reference/chapters/{s.name}.vtt"] = vtt_chapters(s.segments, numbered=True)
        files[f"hypotheses/system_b/{s.name}.vtt"] = vtt_chapters(s.system_b, numbered=False)
    files["reference/reference.rttm"] = "".join(l for s in shows for l in rttm_lines(s.name, s.segments))
    files["annotators/annotator_b.rttm"] = "".join(l for s in shows for l in rttm_lines(s.name, s.annotator_b))
    files["hypotheses/system_a.rttm"] = "".join(l for s in shows for l in rttm_lines(s.name, s.system_a))
    files["units/breath_groups.csv"] = csv_text(
        ["show", "start", "end", "text", "speaker", "topic"],
        [
            [s.name, seconds(g.start), seconds(g.end), asr_text(g.text), g.speaker, g.topic]
            for s in shows
            for g in s.groups
        ],
    )
    for s in shows:
        fmt = CAPTIONS.get(s.name)
        if fmt == "srt":
            files[f"units/captions/{s.name}.srt"] = srt_captions(s.groups)
        elif fmt == "vtt":
            files[f"units/captions/{s.name}.vtt"] = vtt_captions(s.groups)
    files["agreement/coders.json"] = agreement_json(shows)
    files["README.md"] = readme(shows)
    return files


def _coder_boundaries(reference: list[int], n: int, rng) -> list[int]:
    """Another annotator's boundaries, as breath-group gaps ``1 .. n-1``, drawn from the reference's:
    each kept (70 %), moved by one or two breath groups (25 %) or left out (5 %); half the time one
    boundary more, in the middle of the longest segment."""
    out = set()
    for b in reference:
        draw = rng.random()
        if draw < 0.05:
            continue
        if draw < 0.30:
            b += int(rng.choice([-2, -1, 1, 2]))
        if 1 <= b <= n - 1:
            out.add(b)
    if rng.random() < 0.5:
        edges = [0, *reference, n]
        i = int(np.argmax(np.diff(edges)))
        out.add((edges[i] + edges[i + 1]) // 2)
    return sorted(out)


def agreement_json(shows: list[Show], seed: int = DEFAULT_SEED) -> str:
    """``agreement/coders.json``: three annotators' topic segmentations of every show, in breath groups
    (masses: breath groups per segment), in segeval's JSON layout. ``ann1`` is the reference; ``ann2`` and
    ``ann3`` are drawn from it (:func:`_coder_boundaries`, their own seeded generators)."""
    lines = ["{", '  "segmentation_type": "linear",', '  "items": {']
    for index, show in enumerate(shows):
        topics = [g.topic for g in show.groups]
        n = len(topics)
        reference = [i for i in range(1, n) if topics[i] != topics[i - 1]]
        codings = {"ann1": reference}
        for stream, coder in ((3, "ann2"), (4, "ann3")):
            codings[coder] = _coder_boundaries(reference, n, np.random.default_rng([seed, index, stream]))
        masses = {c: np.diff([0, *b, n]).tolist() for c, b in codings.items()}
        body = ",\n".join(f'      "{c}": [{", ".join(map(str, m))}]' for c, m in masses.items())
        lines.append(f'    "{show.name}": {{\n{body}\n    }}' + ("," if index + 1 < len(shows) else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def readme(shows: list[Show]) -> str:
    rows = []
    for s in shows:
        seg = s.segments
        short = sum(1 for x in seg if x.end - x.start < 30000)
        gaps = sum(1 for a, b in zip(seg[:-1], seg[1:]) if b.start > a.end)
        extent = seg[-1].end - seg[0].start
        rows.append(
            f"| `{s.name}` | {s.spec['channel']} | {s.spec['programme']} | {s.spec['date']} "
            f"| {extent // 60000}:{extent // 1000 % 60:02d} | {len(seg)} ({short} short) | {gaps} "
            f"| {len(s.groups)} | {len(s.system_a)} | {len(s.system_b)} |"
        )
    table = "\n".join(rows)
    n_groups = sum(len(s.groups) for s in shows)
    n_segments = sum(len(s.segments) for s in shows)
    return f"""# data_samples: a small synthetic TV news corpus

This folder is the corpus that `tvseg evaluate --demo` scores and that the tests read.
**Everything in it is invented**: the shows, the stories, the people and the words were generated
by `scripts/make_data_samples.py` (seeded, deterministic). The channel names are modelled on French
broadcasters (a public national channel, its regional editions, a 24-hour news channel) to make the
corpus look like the broadcast news tvseg is made for; no real broadcast was used.
Do not edit these files by hand: change the script and run

    python scripts/make_data_samples.py

which rewrites this folder (README included) byte for byte; `tests/test_data_samples.py` checks that
the committed files are exactly what the script writes.

## Shows

{len(shows)} shows, 3 channels, {n_segments} reference topic segments, {n_groups} breath groups.
Times are in seconds with three decimals (milliseconds).

| show | channel | programme | date | length (m:s) | reference segments | gaps | breath groups | system A segments | system B segments |
|---|---|---|---|---|---|---|---|---|---|
{table}

Each show opens with a headline segment (about 45-60 s), has long reports (90-300 s) and an
interview on set in some shows, runs of short briefs (10-29 s, titled "In brief: ..."), a weather
slot and a short closing segment. "Short" means under 30 s, the threshold of Bouchekif et al.
Gaps between reference segments are ad breaks or credits: no topic segment and no breath group
covers them. Titles are English with French place and person names (accents exercise Unicode).

## Files

| file | what it is | read by |
|---|---|---|
| `metadata.csv` | `show,channel,programme,date`, one row per show, for grouping shows in reports | `tvseg.read_metadata` |
| `corpus.uem` | NIST UEM, `<show> 1 <start> <end>`: the evaluated region of each show (the reference's extent) | `tvseg.read_uem` |
| `reference/chapters/<show>.vtt` | the reference: WebVTT chapters, one numbered cue per topic segment, cue text = title | `tvseg.read_segments` (WebVTT) |
| `reference/reference.rttm` | the same reference as RTTM `SEGMENT` lines, all shows in one file, title in the name field with spaces as underscores | `tvseg.read_segments` (RTTM) |
| `annotators/annotator_b.rttm` | a second annotator of the same shows (RTTM): most boundaries within a breath group or two of the reference's, a few briefs grouped, some titles worded differently; with the reference, two annotators (`--reference A=... --reference B=...`: the human ceiling) | `tvseg.read_segments` (RTTM) |
| `hypotheses/system_a.rttm` | system A (the better one), RTTM; some titles `<NA>` | `tvseg.read_segments` (RTTM) |
| `hypotheses/system_b/<show>.vtt` | system B (the worse one), WebVTT chapters without cue numbers, one file per show | `tvseg.read_segments` (WebVTT, folder) |
| `units/breath_groups.csv` | `show,start,end,text,speaker,topic`: the transcript's breath groups (1 to 6 s) for all shows; `text` is lower case without punctuation, as a speech recogniser gives it; `topic` is the reference title, so consecutive rows with one topic form a reference segment | `tvseg.read_units`, and `tvseg.read_segments` (breath-group CSV) |
| `units/captions/<show>.srt` | caption cues (units) for two shows, SRT | `tvseg.read_units` (SRT) |
| `units/captions/<show>.vtt` | caption cues for a third show, WebVTT with `<v Speaker>` voice tags | `tvseg.read_units` (WebVTT captions) |
| `agreement/coders.json` | an agreement dataset (segeval's JSON layout, `{{"items": {{show: {{coder: masses}}}}}}`, `formats/agreement.md`): three annotators' topic segmentations of each show in breath groups (masses: breath groups per segment); `ann1` is the reference, `ann2` and `ann3` move some of its boundaries by one or two breath groups, leave a few out and add one now and then | `tvseg agreement`, `tvseg.agreement` |

The reference in `reference/chapters/` and in `reference/reference.rttm` is the same, to the
millisecond. Breath groups tile each reference segment exactly (a topic boundary always falls between
two breath groups), and captions split the longer breath groups in two, so topic boundaries fall
between caption cues too.

## The two systems

Both hypotheses cover the same extent as the reference and keep its gaps.

- **System A** (close to the reference): boundaries moved along breath-group edges, most by zero or
  one breath group (within 10 s), a few further; a few boundaries off the breath-group grid; per show,
  up to two short segments merged into a neighbour and up to one boundary inserted in a long report.
  Titles are mostly the reference's, some with another case or punctuation, some paraphrased, some `<NA>`.
- **System B** (clearly worse): larger shifts, more boundaries off the grid, runs of briefs merged
  into one segment titled "In brief", long reports split, some paraphrased and some wrong titles.
"""


def write_corpus(files: dict[str, str], out: Path) -> None:
    """Write each file through a temporary file and a rename, so none is left half-written."""
    for relative, text in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "tvseg" / "data_samples", help="output folder")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    write_corpus(corpus_files(build_corpus(args.seed)), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
