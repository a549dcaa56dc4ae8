print("mediagraph")
