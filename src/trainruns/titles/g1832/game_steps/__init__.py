"""1832's rounds: the initial stock round with its private sales ([5.7]), stock rounds
([5]) and operating rounds ([4.1.3]), built from the generic steps."""
