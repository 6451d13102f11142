print("workoutd")
