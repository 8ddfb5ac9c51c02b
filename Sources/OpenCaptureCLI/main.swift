print("opencapture")
