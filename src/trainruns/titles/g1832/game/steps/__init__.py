"""1832's own steps: the initial stock round with its private sales ([5.7]), the stock
turn ([5]), the merger phase ([11]) and the track and token steps it adds to ([6.5.2],
[16.2], [7.5])."""
